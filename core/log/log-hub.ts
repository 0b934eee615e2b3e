import type { Disposable, HostLog, LogLevel, LogOptions } from '@vmark/sdk';
import { isAtLeast } from './log-levels.js';

/** One message of the host's, as its listeners (the MCP sessions) receive it. */
export interface LogRecord {
  readonly level: LogLevel;
  /** Who speaks: a plugin's id, or a part of the host (`documents`, `checkpoints`, `plugins`). */
  readonly logger: string;
  readonly message: string;
  /** Set when the message concerns one MCP connection's call: only that connection is told. */
  readonly connectionId?: string;
}

/** What the person's terminal shows: everything but `debug`. */
export const STDERR_LEVEL: LogLevel = 'info';
/** Start-up messages kept for the sessions that connect later; a host that keeps failing says enough in these. */
const MAX_STARTUP_RECORDS = 32;

/**
 * Where the host's messages go: one line each on stderr (`vmark: ...`, the texts the host has
 * always printed), and every listener — one per MCP session, which filters by the level its
 * client set and sends `notifications/message`. What is said while the host starts (before any
 * client can be connected: a plugin that failed to activate) is kept for later sessions.
 */
export class LogHub {
  readonly #listeners = new Set<(record: LogRecord) => void>();
  readonly #startup: LogRecord[] = [];
  #starting = true;

  constructor(
    private readonly writeLine: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  ) {}

  /** Says something as a part of the host; its stderr line is `vmark: <message>`. */
  log(logger: string, level: LogLevel, message: string, options?: LogOptions): void {
    this.#write({ level, logger, message, connectionId: options?.connectionId }, '');
  }

  /** A `HostLog` speaking as `logger`, whose stderr lines read `vmark: <prefix><message>`. */
  scoped(logger: string, prefix: string): HostLog {
    return {
      log: (level, message, options) =>
        this.#write({ level, logger, message, connectionId: options?.connectionId }, prefix),
    };
  }

  /** Follows every message from now on. */
  subscribe(listener: (record: LogRecord) => void): Disposable {
    this.#listeners.add(listener);
    return { dispose: () => void this.#listeners.delete(listener) };
  }

  /** The host has started: what is said from now on reaches only the sessions connected then. */
  started(): void {
    this.#starting = false;
  }

  /** The host-wide messages said while the host started, oldest first (at most the last 32). */
  startupRecords(): readonly LogRecord[] {
    return this.#startup;
  }

  #write(record: LogRecord, prefix: string): void {
    if (isAtLeast(record.level, STDERR_LEVEL)) this.writeLine(`vmark: ${prefix}${record.message}`);
    if (this.#starting && record.connectionId === undefined) {
      this.#startup.push(record);
      if (this.#startup.length > MAX_STARTUP_RECORDS) this.#startup.shift();
    }
    for (const listener of [...this.#listeners]) {
      try {
        listener(record);
      } catch {
        // A session that cannot take a message must not keep it from the others.
      }
    }
  }
}
