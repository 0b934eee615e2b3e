/**
 * A workspace's git state, read from the files under `.git` without spawning git: a scan runs
 * on every `coherence` read and must stay fast, and git may not even be installed. Only what
 * the git classifier needs: where HEAD is, on which branch, whether a merge-like operation is
 * in progress, and the tail of HEAD's reflog. Anything unreadable is left out, never thrown:
 * a half-broken repository must not stop a scan.
 */
import { open, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';

/** Git operations that write content of their own (rather than moving to an existing commit). */
export type GitMutationOp = 'merge' | 'revert' | 'cherry-pick' | 'rebase' | 'pull';

export interface ReflogEntry {
  readonly old: string;
  readonly new: string;
  /** `<unix seconds> <tz>` as git wrote it. */
  readonly time: string;
  /** Empty when git logged none (e.g. the first entry of a new worktree). */
  readonly message: string;
}

export interface GitState {
  /** The commit HEAD names; null on an unborn branch or when the ref cannot be read. */
  readonly head: string | null;
  /** The branch HEAD points at (`main` for `refs/heads/main`, other refs in full); null when detached. */
  readonly ref: string | null;
  /** Operations stopped half-way (their `*_HEAD` file or rebase folder exists), merge first. */
  readonly inProgress: readonly GitMutationOp[];
  /** The workspace is a linked worktree (`.git` is a file naming a `worktrees/<name>` folder). */
  readonly linkedWorktree: boolean;
  /** The last entries of `logs/HEAD`, oldest first. */
  readonly reflog: readonly ReflogEntry[];
}

export interface GitStateOptions {
  /** Most reflog entries returned; defaults to 64. */
  readonly reflogLimit?: number;
}

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** `<old> <new> <name> <<email>> <ts> <tz>[\t<message>]` */
const REFLOG_LINE =
  /^([0-9a-f]{40}(?:[0-9a-f]{24})?) ([0-9a-f]{40}(?:[0-9a-f]{24})?) [^\t]*? (\d+ [+-]\d{4})(?:\t(.*))?$/;
/** Enough for hundreds of reflog lines while never reading a long history whole. */
const REFLOG_TAIL_BYTES = 64 * 1024;
/** Symbolic refs may chain; git itself gives up after 5 hops. */
const MAX_SYMREF_DEPTH = 5;

const IN_PROGRESS: readonly (readonly [string, GitMutationOp])[] = [
  ['MERGE_HEAD', 'merge'],
  ['REVERT_HEAD', 'revert'],
  ['CHERRY_PICK_HEAD', 'cherry-pick'],
  ['rebase-merge', 'rebase'],
  ['rebase-apply', 'rebase'],
];

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** `.git` is the git dir itself, or (worktrees, submodules) a file saying where it is. */
async function findGitDir(root: string): Promise<string | null> {
  const dotGit = join(root, '.git');
  let isDir: boolean;
  try {
    isDir = (await stat(dotGit)).isDirectory();
  } catch {
    return null;
  }
  if (isDir) return dotGit;
  const match = /^gitdir:\s*(.+?)\s*$/m.exec((await readText(dotGit)) ?? '');
  if (!match?.[1]) return null;
  return isAbsolute(match[1]) ? match[1] : resolve(root, match[1]);
}

function parsePackedRefs(text: string): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of text.split('\n')) {
    // `# pack-refs with: …` headers and `^<sha>` peeled-tag lines name no ref.
    const [sha, name] = line.trim().split(' ');
    if (sha !== undefined && name !== undefined && SHA.test(sha)) refs.set(name, sha);
  }
  return refs;
}

/** Refs a linked worktree keeps for itself; all other refs live in the common dir. */
function isPerWorktree(name: string): boolean {
  return !name.startsWith('refs/') || /^refs\/(?:bisect|worktree|rewritten)\//.test(name);
}

class RefReader {
  private packed: Promise<Map<string, string>> | undefined;

  constructor(
    private readonly gitDir: string,
    private readonly commonDir: string,
  ) {}

  /** The commit a ref names, following symbolic refs; null when it cannot be read. */
  async resolve(name: string, depth = 0): Promise<string | null> {
    // A ref name read from a file must not lead the read out of the repository.
    if (depth > MAX_SYMREF_DEPTH || name.split('/').some((p) => p === '..' || p === '')) return null;
    const dir = isPerWorktree(name) ? this.gitDir : this.commonDir;
    const loose = (await readText(join(dir, name)))?.trim();
    if (loose !== undefined) {
      if (SHA.test(loose)) return loose;
      const target = /^ref:\s*(\S+)$/.exec(loose)?.[1];
      if (target !== undefined) return this.resolve(target, depth + 1);
    }
    this.packed ??= readText(join(this.commonDir, 'packed-refs')).then((t) => parsePackedRefs(t ?? ''));
    return (await this.packed).get(name) ?? null;
  }
}

export function parseReflogLine(line: string): ReflogEntry | null {
  const m = REFLOG_LINE.exec(line);
  if (m?.[1] === undefined || m[2] === undefined || m[3] === undefined) return null;
  return { old: m[1], new: m[2], time: m[3], message: m[4] ?? '' };
}

/** The last `limit` parseable lines of the reflog, reading only its tail. */
async function readReflogTail(path: string, limit: number): Promise<ReflogEntry[]> {
  const handle = await open(path, 'r').catch(() => null);
  if (handle === null) return [];
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - REFLOG_TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const lines = buffer.toString('utf8').split('\n');
    // Reading from mid-file, the first line is a fragment.
    if (start > 0) lines.shift();
    return lines
      .map(parseReflogLine)
      .filter((e): e is ReflogEntry => e !== null)
      .slice(-limit);
  } catch {
    return [];
  } finally {
    await handle.close();
  }
}

/** Null when `root` has no `.git` of its own (a parent folder's repository is not looked for). */
export async function readGitState(root: string, options: GitStateOptions = {}): Promise<GitState | null> {
  const gitDir = await findGitDir(root);
  if (gitDir === null) return null;
  const common = (await readText(join(gitDir, 'commondir')))?.trim();
  const commonDir = common ? resolve(gitDir, common) : gitDir;
  const refs = new RefReader(gitDir, commonDir);

  const headText = (await readText(join(gitDir, 'HEAD')))?.trim() ?? '';
  const symbolic = /^ref:\s*(\S+)$/.exec(headText)?.[1] ?? null;
  const head = symbolic !== null ? await refs.resolve(symbolic) : SHA.test(headText) ? headText : null;
  const ref = symbolic?.startsWith('refs/heads/') ? symbolic.slice('refs/heads/'.length) : symbolic;

  const inProgress: GitMutationOp[] = [];
  for (const [file, op] of IN_PROGRESS) {
    if (!inProgress.includes(op) && (await exists(join(gitDir, file)))) inProgress.push(op);
  }

  return {
    head,
    ref,
    inProgress,
    linkedWorktree: commonDir !== gitDir,
    reflog: await readReflogTail(join(gitDir, 'logs', 'HEAD'), options.reflogLimit ?? 64),
  };
}
