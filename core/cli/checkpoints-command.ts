import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { isDomainError, runCommandLine } from '@vmark/sdk';
import { HostDocumentStore } from '../documents/document-store.js';
import type { Host } from '../composition/host.js';
import type { CheckpointEntry } from '../history/checkpoint-entry.js';
import { CheckpointStore, UnknownCheckpointError } from '../history/checkpoint-store.js';
import {
  type CheckpointRestore,
  NotRestorableError,
  restorableCheckpoint,
  restoreCheckpoint,
  RestoreNotRecordedError,
} from '../history/restore-checkpoint.js';
import { CHECKPOINTS_COMMAND_LINE } from './command-lines.js';
import { vmarkHome } from '../composition/environment.js';
import { startHost } from '../composition/start-host.js';
import { terminalIo } from './terminal-io.js';

/** `vmark checkpoints list [--json] [--file PATH]` and `vmark checkpoints restore ID`. */
export function checkpointsCommand(argv: string[]): Promise<number> {
  return runCommandLine(CHECKPOINTS_COMMAND_LINE, argv, terminalIo(), ({ verb, operands, values }) => {
    const store = new CheckpointStore({ home: vmarkHome() });
    return verb === 'list' ? list(store, values.json === true, values.file) : restore(store, operands[0]!);
  });
}

async function list(store: CheckpointStore, json: boolean, file: string | undefined): Promise<number> {
  let entries = await store.list();
  if (file !== undefined) {
    // Checkpoints hold canonical paths; a deleted file has none, so its plain absolute path is tried too.
    const absolute = path.resolve(file);
    const canonical = await realpath(absolute).catch(() => absolute);
    entries = entries.filter((e) => e.filePath === canonical || e.filePath === absolute);
  }
  process.stdout.write(json ? JSON.stringify(entries, null, 2) + '\n' : table(entries));
  return 0;
}

/**
 * Restores through a host of its own (`restoreCheckpoint`): the host's save refuses a file
 * that changed on disk meanwhile, and a running `vmark mcp` sees an ordinary change on disk.
 */
async function restore(store: CheckpointStore, id: string): Promise<number> {
  let host: Host | undefined;
  try {
    // Checked before a host starts: a missing file is refused, not opened (and not created).
    const { filePath } = await restorableCheckpoint(store, id);
    host = await startHost({ open: [filePath] });
    const result = await restoreCheckpoint(
      {
        store,
        workbench: host.workbench,
        documents: host.container.get(HostDocumentStore),
        tabOutlivesCall: false,
      },
      id,
    );
    if (!result.changed) {
      process.stderr.write(
        `vmark: ${JSON.stringify(filePath)} already holds that text; nothing to restore\n`,
      );
    }
    return report(result);
  } catch (error) {
    return refused(error);
  } finally {
    await host?.dispose();
  }
}

function report({ restored, filePath, revision }: CheckpointRestore): number {
  process.stdout.write(JSON.stringify({ restored, filePath, revision }) + '\n');
  return 0;
}

/** Nothing was restored (or, told first, the restore could not be recorded). */
function refused(error: unknown): number {
  if (error instanceof UnknownCheckpointError) return refuse(`${error.message} (see vmark checkpoints list)`);
  if (error instanceof NotRestorableError) return refuse(error.message);
  if (error instanceof RestoreNotRecordedError) {
    report(error.restore);
    return refuse(error.message);
  }
  if (isDomainError(error)) return refuse(`${error.message} (${error.code}); nothing was restored`);
  throw error;
}

function refuse(message: string): number {
  process.stderr.write(`vmark: ${message}\n`);
  return 1;
}

const HEADERS = ['ID', 'TIME', 'TOOL', 'FILE', 'DESCRIPTION'] as const;

function table(entries: readonly CheckpointEntry[]): string {
  if (entries.length === 0) return 'No checkpoints.\n';
  const rows = entries.map((e) =>
    [e.id, localTime(e.createdAt), e.tool, e.filePath ?? '(untitled)', e.description].map(printable),
  );
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(HEADERS), ...rows.map(line)].join('\n') + '\n';
}

/** `2025-01-31 14:05:09` in the local time zone: when the person was at work, as they remember it. */
function localTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ` +
    `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`
  );
}

/** One line, without control characters: a path or description must not break the table or drive the terminal. */
function printable(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += code < 0x20 || (code >= 0x7f && code <= 0x9f) ? ' ' : char;
  }
  return out;
}
