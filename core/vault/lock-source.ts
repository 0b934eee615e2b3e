/**
 * Files a process links to a lock's name to take the lock (ADR 87). Creating the lock file
 * allocates an inode, and on a busy ext4 the search for a free one is most of what taking a
 * lock costs; `link` to a file the process keeps costs no allocation, and its `unlink` frees
 * none. A save takes two locks (the file's, the checkpoint index's), so this is done twice
 * per write.
 *
 * A source is a file of this process in a folder of vmark's own (`$VMARK_HOME/locks`), kept
 * open. Before each link it is rewritten with the acquisition's token (`<owner tag> <random>`,
 * always the same length in one process): a lock read through its name says who holds it and
 * is fresh (its mtime is the write's), as a created one was, and a breaker that read an
 * earlier acquisition's token never matches this one's. One acquisition uses a source at a
 * time. The lock is ours while its name leads to the source's inode: the open handle keeps
 * that inode alive, so its number cannot pass to another file meanwhile.
 *
 * Where a link cannot be made (another file system, no hard links) the caller creates the
 * lock file itself, as before.
 */
import {
  type BigIntStats,
  closeSync,
  fstatSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { errorCode } from '@vmark/sdk';
import { ownerIsGone } from './process-owner.js';
import { classifyTempName, tempPathFor } from './temp-files.js';

export interface LockSource {
  readonly path: string;
  readonly fd: number;
  readonly ino: bigint;
  readonly dev: bigint;
  /** The bytes it holds (the last token's). */
  size: number;
}

/** What `link` did: the lock is taken, another holder has it, or a link cannot be made there. */
export type LinkOutcome = LockSource | 'taken' | 'cannot';

/** Errors of a folder where hard links cannot be made to the sources: the lock file is created there. */
const NO_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK']);

export class LockSources {
  readonly #folder: string;
  readonly #idle: LockSource[] = [];
  readonly #live = new Set<LockSource>();
  /** Lock folders where a link failed for good (another file system, no hard links). */
  readonly #noLink = new Set<string>();
  #prepared = false;

  constructor(folder: string) {
    this.#folder = folder;
  }

  /** Links a source holding `token` at `lockPath`. */
  link(lockPath: string, token: string): LinkOutcome {
    const lockFolder = path.dirname(lockPath);
    if (this.#noLink.has(lockFolder)) return 'cannot';
    // A source whose name went (removed by hand, a sweep) fails with ENOENT: once more with a new one.
    for (let attempt = 0; attempt < 2; attempt++) {
      const source = this.#take();
      if (source === undefined) return 'cannot';
      try {
        writeToken(source, token);
        linkSync(source.path, lockPath);
        return source;
      } catch (error) {
        const code = errorCode(error);
        if (code === 'EEXIST') {
          this.#idle.push(source);
          return 'taken';
        }
        if (code === 'ENOENT') {
          this.#discard(source);
          continue;
        }
        this.#idle.push(source);
        if (code !== undefined && NO_LINK.has(code)) this.#noLink.add(lockFolder);
        return 'cannot';
      }
    }
    // The lock's folder itself is missing: the caller's create reports it as before.
    return 'cannot';
  }

  /**
   * Removes the lock at `lockPath` if it is still `source`'s link (not taken from us as stale
   * and given to another), and returns the source for the next acquisition.
   */
  release(lockPath: string, source: LockSource): void {
    let atName: BigIntStats | undefined;
    try {
      atName = lstatSync(lockPath, { bigint: true, throwIfNoEntry: false });
      if (atName !== undefined && atName.ino === source.ino && atName.dev === source.dev) {
        unlinkSync(lockPath);
      }
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') {
        // Still linked at the lock: never rewritten for another acquisition.
        this.#forget(source);
        throw error;
      }
    }
    this.#idle.push(source);
  }

  /** Removes every source of this process (at exit: a killed process's are swept by the next). */
  removeAll(): void {
    for (const source of [...this.#live]) this.#discard(source);
  }

  #take(): LockSource | undefined {
    const idle = this.#idle.pop();
    if (idle !== undefined) return idle;
    try {
      if (!this.#prepared) {
        mkdirSync(this.#folder, { recursive: true, mode: 0o700 });
        sweepEnded(this.#folder);
        this.#prepared = true;
      }
      const file = tempPathFor(path.join(this.#folder, 'lock-source'));
      const fd = openSync(file, 'wx', 0o600);
      const stats = fstatSync(fd, { bigint: true });
      const source = { path: file, fd, ino: stats.ino, dev: stats.dev, size: 0 };
      this.#live.add(source);
      return source;
    } catch {
      // No source can be made (a read-only home): the lock file is created, as before.
      return undefined;
    }
  }

  #discard(source: LockSource): void {
    this.#forget(source);
    try {
      unlinkSync(source.path);
    } catch {
      // Already gone, or left for the sweep of an ended process's sources.
    }
  }

  #forget(source: LockSource): void {
    this.#live.delete(source);
    try {
      closeSync(source.fd);
    } catch {
      // Closed already.
    }
  }
}

/** Rewrites the source with `token`: its whole content, and its mtime now. */
function writeToken(source: LockSource, token: string): void {
  const bytes = Buffer.from(token, 'utf8');
  writeSync(source.fd, bytes, 0, bytes.length, 0);
  if (source.size > bytes.length) ftruncateSync(source.fd, bytes.length);
  source.size = bytes.length;
}

/** Removes sources left by processes that have ended (killed, so their exit handler never ran). */
function sweepEnded(folder: string): void {
  for (const name of readdirSync(folder)) {
    const what = classifyTempName(name);
    if (what.kind !== 'temp' || !ownerIsGone(what.owner)) continue;
    try {
      unlinkSync(path.join(folder, name));
    } catch {
      // Another process swept it first.
    }
  }
}

/** The folder of `$VMARK_HOME` that holds them. */
const HOME_FOLDER = 'lock-sources';

/** The sources of one `$VMARK_HOME`: what a host's saves and checkpoints lock with. */
export function lockSourcesOfHome(home: string): LockSources {
  return lockSourcesIn(path.join(home, HOME_FOLDER));
}

const byFolder = new Map<string, LockSources>();

/** The sources kept in `folder`, one set per folder in a process, removed when the process exits. */
export function lockSourcesIn(folder: string): LockSources {
  const resolved = path.resolve(folder);
  let sources = byFolder.get(resolved);
  if (sources === undefined) {
    if (byFolder.size === 0) process.once('exit', () => byFolder.forEach((each) => each.removeAll()));
    sources = new LockSources(resolved);
    byFolder.set(resolved, sources);
  }
  return sources;
}
