import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SerialQueue } from '@vmark/sdk';
import { writeFileAtomic } from '../vault/atomic-write.js';
import { isWithinRoot } from '../vault/path-scope.js';

/**
 * `$VMARK_HOME/recent-files.json`: `{ "version": 1, "workspaces": { "<root>": ["a/b.md", …] } }`,
 * each workspace's files relative to it, most recent first.
 */
export const RECENT_FILES_FILE = 'recent-files.json';
/** Files kept per workspace, and workspaces kept (the least recently used goes first). */
export const MAX_RECENT_FILES = 50;
export const MAX_RECENT_WORKSPACES = 50;

/**
 * The files a person opened in the editor, per workspace root, kept across restarts. Only the
 * editor page tells it (opening a file, picking a tab): an AI client's opens are not the person's.
 * A file that cannot be read as this format is left as it is and not written over: the list then
 * lives in memory for this run, and `problem` says why.
 */
export class RecentFiles {
  #workspaces = new Map<string, string[]>();
  #problem: string | null = null;
  #writeProblem: string | null = null;
  readonly #writes = new SerialQueue();
  readonly #loaded: Promise<void>;

  constructor(private readonly file: string) {
    this.#loaded = this.#load();
  }

  static in(vmarkHome: string): RecentFiles {
    return new RecentFiles(path.join(vmarkHome, RECENT_FILES_FILE));
  }

  /** Why the list is not read from or written to its file, or null. */
  get problem(): string | null {
    return this.#problem ?? this.#writeProblem;
  }

  /** The workspace's recent files, most recent first, relative to `root`. */
  async list(root: string): Promise<readonly string[]> {
    await this.#loaded;
    return this.#workspaces.get(root) ?? [];
  }

  /**
   * The person opened `file` (absolute, canonical); it counts for the deepest of `roots` holding it.
   * Resolves once the list has it; the file is written after (see `flushed`).
   */
  async opened(file: string, roots: readonly string[]): Promise<void> {
    await this.#loaded;
    const root = roots
      .filter((r) => isWithinRoot(file, r) && r !== file)
      .sort((a, b) => b.length - a.length)[0];
    if (root === undefined) return;
    const relative = path.relative(root, file).split(path.sep).join('/');
    const files = [relative, ...(this.#workspaces.get(root) ?? []).filter((f) => f !== relative)];
    this.#workspaces.delete(root);
    this.#workspaces.set(root, files.slice(0, MAX_RECENT_FILES));
    while (this.#workspaces.size > MAX_RECENT_WORKSPACES) {
      this.#workspaces.delete(this.#workspaces.keys().next().value!);
    }
    if (this.#problem !== null) return;
    // Not awaited: picking a tab does not wait for a disk. A write that fails is said, and the next tries again.
    void this.#writes
      .run(() => this.#save())
      .then(
        () => (this.#writeProblem = null),
        (error: unknown) =>
          (this.#writeProblem = `${this.file} could not be written (${(error as Error).message})`),
      );
  }

  /** Resolves once every write asked for so far is on disk. */
  flushed(): Promise<void> {
    return this.#writes.idle();
  }

  async #load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.#problem = `${this.file} could not be read (${(error as Error).message})`;
      return;
    }
    const workspaces = parseRecent(text);
    if (typeof workspaces === 'string') this.#problem = `${this.file} ${workspaces}; it is left as it is`;
    else this.#workspaces = workspaces;
  }

  async #save(): Promise<void> {
    // Least recently used first in the map; the file lists the most recent workspace first.
    const workspaces = Object.fromEntries([...this.#workspaces].reverse());
    await writeFileAtomic(this.file, JSON.stringify({ version: 1, workspaces }, null, 2) + '\n');
  }
}

/** The workspaces' lists (least recently used first), or why the text is not this file's format. */
function parseRecent(text: string): Map<string, string[]> | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return `is not JSON (${(error as Error).message})`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'is not a JSON object';
  const { version, workspaces } = parsed as Record<string, unknown>;
  if (version !== 1) return `has version ${JSON.stringify(version)}, where this vmark reads version 1`;
  if (typeof workspaces !== 'object' || workspaces === null || Array.isArray(workspaces))
    return 'has no "workspaces" object';
  const lists = new Map<string, string[]>();
  for (const [root, files] of Object.entries(workspaces as Record<string, unknown>).reverse()) {
    if (!Array.isArray(files) || !files.every((f) => typeof f === 'string'))
      return `gives ${JSON.stringify(root)} something other than a list of paths`;
    lists.set(root, files.slice(0, MAX_RECENT_FILES));
  }
  return lists;
}
