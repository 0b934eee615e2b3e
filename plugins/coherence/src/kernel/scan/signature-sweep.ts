/**
 * The signature sweep of a walk (ADR 77, 82): one `lstat` of every listed file, whose signature
 * the walk cache compares with the one it remembers. It is most of a new process's first answer,
 * and one system call a file on one thread; git spreads the same calls over threads. On a large
 * walk a helper thread (`SweepThread`) takes chunks of the list while the listing still runs and
 * the main thread reads the index; once free, the main thread sweeps the chunks the helper has not
 * started, from the end. Each chunk is claimed in a shared array before it is swept, so it is swept
 * exactly once; if the helper fails, the main thread sweeps what it left. On a machine already busier
 * than its cores the helper is not started: it would only share this process's part of the CPU
 * with the main thread, and its start costs more than it saves there (ADR 82; as `make -l`).
 */
import { lstatSync, type BigIntStats } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, sep } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * A file's stat signature — device, inode, size, mtime and ctime in nanoseconds, decimal, in
 * that order, `:`-separated — as kept in memory and on disk (ADR 46, 77): one string, so a
 * signature read back from disk is compared as it is, without parsing it into numbers.
 * `sweepThreadMain` writes the same text; a test holds the two alike.
 */
export const signatureOf = (info: BigIntStats): string =>
  `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;

/**
 * The signature of the plain file at `abs` if it is at most `maxBytes`, else null: gone, a link
 * or anything else swapped in since the listing, too large or not stat-able (reading it says what
 * is wrong). Synchronous on purpose: through the thread pool each lstat costs several times the
 * call itself.
 */
export function statSignature(abs: string, maxBytes: bigint): string | null {
  let info: BigIntStats | undefined;
  try {
    info = lstatSync(abs, { bigint: true, throwIfNoEntry: false });
  } catch {
    return null;
  }
  return info === undefined || !info.isFile() || info.size > maxBytes ? null : signatureOf(info);
}

/** The absolute path of a listed file, as the sweep stats it (on either thread). */
const absoluteOf = (root: string, rel: string): string => (sep === '/' ? `${root}/${rel}` : join(root, rel));

/** A chunk of a sweep handed to the helper thread. */
interface SweepChunk {
  readonly sweep: number;
  readonly chunk: number;
  /** One cell a chunk: 0 free, 1 taken by the helper, 2 by the main thread. */
  readonly claims: SharedArrayBuffer;
  readonly root: string;
  readonly maxBytes: bigint;
  readonly paths: readonly string[];
}

/** The helper's signatures of one chunk, in the chunk's order. */
interface SweptChunk {
  readonly sweep: number;
  readonly chunk: number;
  readonly signatures: readonly (string | null)[];
}

/** A chunk's claim cell: free, or taken by the helper (1, written in its own text) or the main thread. */
const FREE = 0;
const BY_MAIN = 2;

/**
 * The helper thread's program, run from its text (so it needs no file of its own next to a
 * bundle): what `statSignature` does, for every chunk it can claim.
 */
export function sweepThreadMain(): void {
  // Not `require`: a bundler rewrites that name, and the text then runs where its rewrite is unknown.
  const threads = process.getBuiltinModule('node:worker_threads');
  const fs = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  const port = threads.parentPort;
  port?.on('message', (message: SweepChunk) => {
    // Free (0) → taken by the helper (1); else the main thread has it.
    if (Atomics.compareExchange(new Int32Array(message.claims), message.chunk, 0, 1) !== 0) return;
    const { root, maxBytes } = message;
    const signatures = message.paths.map((rel) => {
      try {
        const abs = path.sep === '/' ? `${root}/${rel}` : path.join(root, rel);
        const info = fs.lstatSync(abs, { bigint: true, throwIfNoEntry: false });
        if (info === undefined || !info.isFile() || info.size > maxBytes) return null;
        return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
      } catch {
        return null;
      }
    });
    const answer: SweptChunk = { sweep: message.sweep, chunk: message.chunk, signatures };
    port.postMessage(answer);
  });
}

const THREAD_SOURCE = `(${sweepThreadMain.toString()})();`;

/** Files in a chunk: a turn of the event loop on the main thread, one message to the helper. */
const CHUNK_FILES = 256;
/** Walks of fewer files are swept on the main thread alone: starting the helper costs more. */
const THREAD_FROM_FILES = 2048;

/** Whether a core is to spare: the load average (over a minute) below the number of cores. */
const coreToSpare = (): boolean => (loadavg()[0] ?? 0) < availableParallelism();

/**
 * The helper thread of a workspace's walks, started at the first walk large enough to use it
 * while a core is to spare, and kept (unreferenced while idle) until `dispose`. Keep one per
 * workspace for the process' life.
 */
export class SweepThread {
  readonly chunkFiles: number;
  readonly fromFiles: number;
  /** Asked at each large walk: false keeps that walk's sweep on the main thread. */
  readonly spare: () => boolean;
  #worker: Worker | undefined;
  readonly #sweeps = new Map<number, SignatureSweep>();
  #nextSweep = 0;

  /** `chunkFiles` and `fromFiles` default to what suits large trees; tests lower them and say a core is to spare. */
  constructor(
    options: {
      readonly chunkFiles?: number;
      readonly fromFiles?: number;
      readonly spare?: () => boolean;
    } = {},
  ) {
    this.chunkFiles = Math.max(1, options.chunkFiles ?? CHUNK_FILES);
    this.fromFiles = options.fromFiles ?? THREAD_FROM_FILES;
    this.spare = options.spare ?? coreToSpare;
  }

  dispose(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#lost();
    void worker?.terminate();
  }

  /** @internal A sweep starts using the thread: it is kept running (referenced) until `leave`. */
  join(sweep: SignatureSweep): number {
    const worker = this.#started();
    const id = this.#nextSweep++;
    this.#sweeps.set(id, sweep);
    worker.ref();
    return id;
  }

  /** @internal */
  leave(id: number): void {
    this.#sweeps.delete(id);
    if (this.#sweeps.size === 0) this.#worker?.unref();
  }

  /** @internal Hands a chunk to the helper; false when there is no helper to hand it to. */
  post(chunk: SweepChunk): boolean {
    if (this.#worker === undefined) return false;
    this.#worker.postMessage(chunk);
    return true;
  }

  #started(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = new Worker(THREAD_SOURCE, { eval: true });
    worker.on('message', (answer: SweptChunk) => this.#sweeps.get(answer.sweep)?.swept(answer));
    const gone = () => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#lost();
    };
    worker.on('error', gone);
    worker.on('exit', gone);
    return (this.#worker = worker);
  }

  /** The helper is gone: each sweep using it sweeps what it left on the main thread. */
  #lost(): void {
    for (const sweep of this.#sweeps.values()) sweep.helperLost();
  }
}

/**
 * The signatures of one walk's listed files. `offer` the list as the listing grows (full chunks
 * go to the helper at once), then `finish` it: the signatures, in the list's order.
 */
export class SignatureSweep {
  readonly #claims: Int32Array | undefined;
  readonly #results: (readonly (string | null)[] | undefined)[] = [];
  #id: number | undefined;
  #posted = 0;
  #helperLost = false;
  #helperChunks = 0;
  #onSwept: (() => void) | undefined;

  constructor(
    private readonly root: string,
    private readonly maxBytes: bigint,
    maxFiles: number,
    private readonly thread?: SweepThread,
  ) {
    if (thread !== undefined) {
      this.#claims = new Int32Array(new SharedArrayBuffer(4 * (Math.ceil(maxFiles / thread.chunkFiles) + 1)));
    }
  }

  /** The listing so far: whole chunks not yet handed out go to the helper, once the list is large. */
  offer(candidates: readonly string[]): void {
    const thread = this.thread;
    if (thread === undefined || this.#helperLost) return;
    if (this.#id === undefined) {
      if (candidates.length < thread.fromFiles) return;
      if (!thread.spare()) {
        this.#helperLost = true; // not asked again for this walk
        return;
      }
      try {
        this.#id = thread.join(this);
      } catch {
        // No thread to be had (resources): the main thread sweeps alone.
        this.#helperLost = true;
        return;
      }
    }
    while (!this.#helperLost && (this.#posted + 1) * thread.chunkFiles <= candidates.length) {
      this.#post(candidates, this.#posted);
    }
  }

  /** The signature of each of `candidates` (the whole listing), null where `statSignature` gives null. */
  async finish(candidates: readonly string[]): Promise<(string | null)[]> {
    const thread = this.thread;
    const chunkFiles = thread?.chunkFiles ?? CHUNK_FILES;
    const chunks = Math.ceil(candidates.length / chunkFiles);
    try {
      this.offer(candidates);
      if (this.#id !== undefined) {
        while (!this.#helperLost && this.#posted < chunks) this.#post(candidates, this.#posted);
      }
      // The main thread's share: from the end, the chunks the helper has not reached.
      for (let k = chunks - 1; k >= 0; k--) {
        if (this.#results[k] !== undefined) continue; // the helper's, answered
        if (this.#claims !== undefined && this.#id !== undefined && !this.#helperLost) {
          if (Atomics.compareExchange(this.#claims, k, FREE, BY_MAIN) !== FREE) continue;
        }
        this.#results[k] = this.#sweep(candidates, k, chunkFiles);
        if (k > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      // The helper's share (or, if it failed, what it left).
      await new Promise<void>((resolve) => {
        this.#onSwept = () => {
          if (this.#helperLost) this.#sweepLeft(candidates, chunks, chunkFiles);
          if (this.#missing(chunks) === 0) resolve();
        };
        this.#onSwept();
      });
    } finally {
      if (this.#id !== undefined) thread?.leave(this.#id);
    }
    const out: (string | null)[] = [];
    for (let k = 0; k < chunks; k++) for (const signature of this.#results[k] ?? []) out.push(signature);
    return out;
  }

  /** Chunks the helper thread swept (for tests and the bench). */
  get helperChunks(): number {
    return this.#helperChunks;
  }

  /** @internal The helper's answer for a chunk. */
  swept(answer: SweptChunk): void {
    this.#helperChunks += 1;
    this.#results[answer.chunk] = answer.signatures;
    this.#onSwept?.();
  }

  /** @internal The helper is gone: no chunk is handed to it any more, and what it took is swept here. */
  helperLost(): void {
    this.#helperLost = true;
    this.#onSwept?.();
  }

  #post(candidates: readonly string[], k: number): void {
    const thread = this.thread;
    if (thread === undefined || this.#claims === undefined || this.#id === undefined) return;
    const paths = candidates.slice(k * thread.chunkFiles, (k + 1) * thread.chunkFiles);
    const chunk = { sweep: this.#id, chunk: k, claims: this.#claims.buffer as SharedArrayBuffer, paths };
    if (thread.post({ ...chunk, root: this.root, maxBytes: this.maxBytes })) this.#posted = k + 1;
    else this.helperLost();
  }

  #sweep(candidates: readonly string[], k: number, chunkFiles: number): (string | null)[] {
    const out: (string | null)[] = [];
    const end = Math.min(candidates.length, (k + 1) * chunkFiles);
    for (let i = k * chunkFiles; i < end; i++) {
      out.push(statSignature(absoluteOf(this.root, candidates[i] as string), this.maxBytes));
    }
    return out;
  }

  /** After the helper failed: the chunks it took but never answered, swept here. */
  #sweepLeft(candidates: readonly string[], chunks: number, chunkFiles: number): void {
    for (let k = 0; k < chunks; k++) this.#results[k] ??= this.#sweep(candidates, k, chunkFiles);
  }

  #missing(chunks: number): number {
    let missing = 0;
    for (let k = 0; k < chunks; k++) if (this.#results[k] === undefined) missing++;
    return missing;
  }
}
