import type { Disposable, WorkspaceFiles } from '@vmark/sdk';
import { SerialQueue } from '@vmark/sdk';
import { lineOf, lineStarts } from './lines.js';
import { linkTarget } from './link-target.js';
import { type NoteLink, noteLinks } from './note-links.js';

/** A note larger than this is left out of the link index, as vault search leaves out what it cannot hold. */
export const MAX_INDEXED_NOTE_BYTES = 2 * 1024 * 1024;
/** How much of a link's line a backlink shows. */
const CONTEXT_CHARS = 160;
/** Notes read at once while the index is built. */
const READERS = 8;

/** One link of a note, with where it is for a click to open it there. */
export interface IndexedLink {
  readonly link: NoteLink;
  /** Line and column from 1 (UTF-16 units). */
  readonly line: number;
  readonly column: number;
  /** The link's line, cut around it when long. */
  readonly context: string;
}

/** A note that links to another, at one of its links. */
export interface Backlink {
  /** The linking note, relative to the root. */
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly length: number;
  readonly context: string;
}

export function isNote(relativePath: string): boolean {
  return /\.md$/i.test(relativePath);
}

/** The links of a note's text, each with its line and context. */
export function indexLinks(text: string): IndexedLink[] {
  const starts = lineStarts(text);
  return noteLinks(text).map((link) => {
    const low = lineOf(starts, link.from) - 1;
    const lineStart = starts[low]!;
    const lineEnd = low + 1 < starts.length ? starts[low + 1]! - 1 : text.length;
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
    const column = link.from - lineStart;
    const from = Math.max(0, Math.min(column - CONTEXT_CHARS / 4, line.length - CONTEXT_CHARS));
    const cut = line.slice(from, from + CONTEXT_CHARS);
    const context = `${from > 0 ? '…' : ''}${cut.trim()}${from + CONTEXT_CHARS < line.length ? '…' : ''}`;
    return { link, line: low + 1, column: column + 1, context };
  });
}

/** The last part of the name a link or a file goes by: what a backlink must at least share. */
function stem(name: string): string {
  const last = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
  return last.endsWith('.md') ? last.slice(0, -3) : last;
}

/**
 * The links of one workspace root's notes (ADR 76), for backlinks: built over the host's file
 * list (`WorkspaceFiles`, the index quick open and vault search share) and kept current by its
 * folder watches; an open note's buffer replaces its file's text as the person types. Notes past
 * `MAX_INDEXED_NOTE_BYTES` (or not UTF-8) are left out. Core reads no Markdown: this is the
 * document plugin's.
 */
export class RootLinkIndex implements Disposable {
  readonly ready: Promise<void>;
  readonly #notes = new Map<string, readonly IndexedLink[]>();
  /** Notes whose text comes from an open buffer, not the disk, until it is saved or closed. */
  readonly #buffers = new Set<string>();
  /** The last `setBuffer` call of each note whose turn has not come yet. */
  readonly #latestBuffer = new Map<string, object>();
  readonly #queue = new SerialQueue();
  readonly #watch: Disposable;
  #disposed = false;

  constructor(
    readonly root: string,
    private readonly files: Pick<WorkspaceFiles, 'list' | 'onChange' | 'readText'>,
    private readonly changed: () => void,
  ) {
    this.#watch = files.onChange(root, ({ folder, name }) => {
      void this.#queue.run(() => this.#heard(folder, name));
    });
    this.ready = this.#queue.run(() => this.#build());
  }

  /**
   * An open note's text, as the person has it now (null: back to the file's). Given as a
   * function, it is read only when its turn in the queue comes and no later call for the note
   * waits behind it: keystrokes typed meanwhile index the text once, not once each.
   */
  setBuffer(relativePath: string, text: string | (() => string) | null): void {
    const call = {};
    this.#latestBuffer.set(relativePath, call);
    void this.#queue.run(async () => {
      if (this.#disposed || this.#latestBuffer.get(relativePath) !== call) return;
      this.#latestBuffer.delete(relativePath);
      if (text === null) {
        this.#buffers.delete(relativePath);
        await this.#read(relativePath);
      } else {
        this.#buffers.add(relativePath);
        this.#notes.set(relativePath, indexLinks(typeof text === 'string' ? text : text()));
      }
      this.changed();
    });
  }

  /** The notes that link to `target` (relative to the root), each at every link, in path order. */
  async backlinks(target: string): Promise<Backlink[]> {
    await this.ready;
    return this.#queue.run(async () => {
      const files = await this.files.list(this.root);
      const wanted = stem(target);
      const found: Backlink[] = [];
      for (const [note, links] of [...this.#notes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (note === target) continue;
        for (const { link, line, column, context } of links) {
          if (link.target === '' || stem(link.target) !== wanted) continue;
          if (linkTarget(link, note, files) !== target) continue;
          found.push({ path: note, line, column, length: link.to - link.from, context });
        }
      }
      return found;
    });
  }

  dispose(): void {
    this.#disposed = true;
    this.#watch.dispose();
  }

  async #build(): Promise<void> {
    const notes = (await this.files.list(this.root)).filter(isNote);
    let next = 0;
    const reader = async () => {
      while (next < notes.length && !this.#disposed) await this.#read(notes[next++]!);
    };
    await Promise.all(Array.from({ length: READERS }, reader));
    this.changed();
  }

  async #heard(folder: string, name: string | null): Promise<void> {
    if (this.#disposed) return;
    const prefix = folder === '' ? '' : `${folder}/`;
    let names: string[];
    if (name !== null && isNote(name)) names = [`${prefix}${name}`];
    else {
      // Unnamed: anything in the folder; another name may be a folder come or gone, with its notes.
      const under = name === null ? prefix : `${prefix}${name}/`;
      const listed = (await this.files.list(this.root)).filter((p) => isNote(p) && p.startsWith(under));
      names = [...new Set([...[...this.#notes.keys()].filter((p) => p.startsWith(under)), ...listed])];
    }
    for (const note of names) await this.#read(note);
    if (names.length > 0) this.changed();
  }

  async #read(note: string): Promise<void> {
    if (this.#buffers.has(note)) return;
    const text = await this.files.readText(this.root, note, MAX_INDEXED_NOTE_BYTES);
    if (text === null) {
      this.#notes.delete(note);
      return;
    }
    this.#notes.set(note, indexLinks(text));
  }
}
