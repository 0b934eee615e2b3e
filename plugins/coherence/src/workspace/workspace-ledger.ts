/** One workspace's ledger: reading it (from where the last read stopped) and appending to this writer's segment. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { uuidv7 } from '../kernel/identity/index.js';
import {
  appendEntries,
  ensureLayout,
  LedgerTail,
  type EntryFactory,
  type LedgerEntry,
  type LedgerTailRead,
  type SegmentMark,
} from '../kernel/ledger/index.js';

const VMARK_DIR = '.vmark';

export interface Clock {
  readonly now: () => Date;
  readonly newId: () => string;
}

export const systemClock: Clock = { now: () => new Date(), newId: () => uuidv7() };

export class WorkspaceLedger {
  readonly vmarkDir: string;
  readonly #tail: LedgerTail;
  readonly #readers: ((read: LedgerTailRead) => void)[] = [];

  constructor(
    readonly root: string,
    readonly writer: string,
    readonly clock: Clock,
  ) {
    this.vmarkDir = path.join(root, VMARK_DIR);
    this.#tail = new LedgerTail(this.vmarkDir, { writeQuarantine: true });
  }

  /** How new entries are stamped: by this writer, at the clock's time. */
  get factory(): EntryFactory {
    return { writer: this.writer, now: this.clock.now, newId: this.clock.newId };
  }

  initialized(): Promise<boolean> {
    // Asked on every save (capture's first identity): a look at metadata, synchronous (ADR 47, ADR 79);
    // `existsSync`, since most workspaces have no `.vmark` and `accessSync` builds and throws an error for that.
    return Promise.resolve(existsSync(this.vmarkDir));
  }

  /** The whole ledger, reading only what was appended since the last call. */
  async read(onSegment?: (done: number, total: number) => void): Promise<LedgerTailRead> {
    const read = await this.#tail.refresh(onSegment);
    for (const listener of this.#readers) listener(read);
    return read;
  }

  /** Calls `listener` with every read, so that what is derived from the ledger can follow each append. */
  onRead(listener: (read: LedgerTailRead) => void): void {
    this.#readers.push(listener);
  }

  /** Where the last read stopped in each segment. */
  marks(): SegmentMark[] {
    return this.#tail.marks();
  }

  /** Appends to this writer's segment, creating `.vmark/` on the workspace's first entry. */
  async append(entries: readonly LedgerEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await ensureLayout(this.vmarkDir);
    await appendEntries(this.vmarkDir, this.writer, entries);
  }
}
