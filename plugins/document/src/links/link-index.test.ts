import type { Disposable, WorkspaceFileChange, WorkspaceFiles } from '@vmark/sdk';
import { describe, expect, it } from 'vitest';
import { indexLinks, MAX_INDEXED_NOTE_BYTES, RootLinkIndex } from './link-index.js';

/** A workspace of files in memory, whose changes the test announces as the host's watches would. */
class MemoryFiles implements Pick<WorkspaceFiles, 'list' | 'onChange' | 'readText'> {
  readonly texts = new Map<string, string>();
  readonly #listeners = new Set<(change: WorkspaceFileChange) => void>();
  reads = 0;

  list(): Promise<readonly string[]> {
    return Promise.resolve([...this.texts.keys()]);
  }

  onChange(_root: string, listener: (change: WorkspaceFileChange) => void): Disposable {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }

  readText(_root: string, relativePath: string, maxBytes: number): Promise<string | null> {
    this.reads++;
    const text = this.texts.get(relativePath);
    return Promise.resolve(text === undefined || Buffer.byteLength(text) > maxBytes ? null : text);
  }

  write(file: string, text: string | null): void {
    if (text === null) this.texts.delete(file);
    else this.texts.set(file, text);
    const slash = file.lastIndexOf('/');
    for (const listener of this.#listeners)
      listener({ folder: slash === -1 ? '' : file.slice(0, slash), name: file.slice(slash + 1) });
  }
}

function vault(files: Record<string, string>): {
  files: MemoryFiles;
  index: RootLinkIndex;
  changes: () => number;
} {
  const memory = new MemoryFiles();
  for (const [name, text] of Object.entries(files)) memory.texts.set(name, text);
  let changes = 0;
  const index = new RootLinkIndex('/vault', memory, () => changes++);
  return { files: memory, index, changes: () => changes };
}

const paths = (found: readonly { path: string; line: number }[]) => found.map((b) => `${b.path}:${b.line}`);

describe("a note's indexed links", () => {
  it('gives each link its line, column and line for context', () => {
    const [wiki, md] = indexLinks('# T\n\nSee [[Beta]] and\n[b](notes/beta.md "t").\n');
    expect(wiki).toMatchObject({ line: 3, column: 5, context: 'See [[Beta]] and' });
    expect(md).toMatchObject({ line: 4, column: 1, context: '[b](notes/beta.md "t").' });
  });

  it('cuts a long line around the link', () => {
    const [link] = indexLinks(`${'x'.repeat(500)} [[far]] ${'y'.repeat(500)}\n`);
    expect(link!.context).toMatch(/^….*\[\[far\]\].*…$/);
    expect(link!.context.length).toBeLessThan(170);
  });
});

describe('backlinks', () => {
  it('lists the notes whose links resolve to the note, each link, in path order', async () => {
    const { index } = vault({
      'notes/beta.md': '# Beta\n',
      'a.md': 'x [[beta]]\n[[beta#Part|B]]\n',
      'z/c.md': '[c](../notes/beta.md)\n[other](../notes/beta-2.md)\n',
      'code.md': '`[[beta]]`\n',
      'other/beta.md': '# Another beta\n',
      'other/d.md': '[[beta]]\n',
    });
    // other/d.md's [[beta]] finds other/beta.md, in its own folder.
    expect(paths(await index.backlinks('notes/beta.md'))).toEqual(['a.md:1', 'a.md:2', 'z/c.md:1']);
    expect(paths(await index.backlinks('other/beta.md'))).toEqual(['other/d.md:1']);
  });

  it('follows files that change, appear and go, as the watches hear them', async () => {
    const { files, index, changes } = vault({ 'beta.md': '# Beta\n', 'a.md': 'none\n' });
    expect(await index.backlinks('beta.md')).toEqual([]);
    const before = changes();
    files.write('a.md', 'now [[beta]]\n');
    files.write('new.md', '[b](beta.md)\n');
    expect(paths(await index.backlinks('beta.md'))).toEqual(['a.md:1', 'new.md:1']);
    expect(changes()).toBeGreaterThan(before);
    files.write('new.md', null);
    expect(paths(await index.backlinks('beta.md'))).toEqual(['a.md:1']);
  });

  it("takes an open note's buffer over its file until it is back to the file's", async () => {
    const { files, index } = vault({ 'beta.md': '# Beta\n', 'a.md': 'none\n' });
    index.setBuffer('a.md', 'typed [[beta]]\n');
    expect(paths(await index.backlinks('beta.md'))).toEqual(['a.md:1']);
    // The disk changing under an edited buffer does not replace what the person has.
    files.write('a.md', 'none still\n');
    expect(paths(await index.backlinks('beta.md'))).toEqual(['a.md:1']);
    index.setBuffer('a.md', null);
    expect(await index.backlinks('beta.md')).toEqual([]);
  });

  it('reads a buffer given as a function once for keystrokes queued together, the last one', async () => {
    const { index } = vault({ 'beta.md': '# Beta\n', 'gamma.md': '# Gamma\n', 'a.md': 'none\n' });
    const reads: string[] = [];
    const typed = (text: string) => () => (reads.push(text), text);
    index.setBuffer('a.md', typed('[[beta]]\n'));
    index.setBuffer('a.md', typed('[[beta]] [[gamma]]\n'));
    index.setBuffer('a.md', typed('[[gamma]]\n'));
    expect(paths(await index.backlinks('gamma.md'))).toEqual(['a.md:1']);
    expect(await index.backlinks('beta.md')).toEqual([]);
    expect(reads).toEqual(['[[gamma]]\n']);
  });

  it('leaves out a note past the bound, and files that are not notes', async () => {
    const { files, index } = vault({
      'beta.md': '# Beta\n',
      'huge.md': `[[beta]]\n${'x'.repeat(MAX_INDEXED_NOTE_BYTES)}`,
      'list.txt': '[[beta]]\n',
    });
    expect(await index.backlinks('beta.md')).toEqual([]);
    const reads = files.reads;
    files.write('list.txt', '[[beta]] again\n');
    await index.backlinks('beta.md');
    expect(files.reads).toBe(reads);
  });
});
