import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, connectStdio, eventually, TempDirs } from './support/cli.js';

/*
 * Coherence capture in the flows an AI client really uses (issue 10), through the built CLI
 * with the real SDK client: a workspace whose files carry no identity yet, a chapter made
 * from a character sheet, and every way the sheet can change afterwards.
 */

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const ELENA = '# Elena\n\nEyes: green.\n';
const CH3 = '# Chapter 3\n\nA draft.\n';
const ID_LINE = /^---\nvmark:\n {2}id: ([0-9a-f-]{36})\n---\n/;

let workspace: string;
let home: string;
let client: Client;
let transport: StdioClientTransport;
let stderr: string;

const at = (name: string) => path.join(workspace, name);
const disk = (name: string) => readFile(at(name), 'utf8');

async function start(open: readonly string[] = ['characters/elena.md', 'scenes/ch3.md']): Promise<void> {
  ({ client, transport } = await connectStdio(
    ['--workspace', workspace, ...open.flatMap((name) => ['--open', at(name)])],
    home,
  ));
  stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
}

beforeEach(async () => {
  workspace = await realpath(await temp.make('vmark-capture-'));
  home = await temp.make('vmark-capture-home-');
  await mkdir(at('characters'));
  await mkdir(at('scenes'));
  await writeFile(at('characters/elena.md'), ELENA);
  await writeFile(at('scenes/ch3.md'), CH3);
});
afterEach(async () => {
  await client?.close();
});

interface Tab {
  readonly id: string;
  readonly filePath: string | null;
  readonly kind: string;
  readonly dirty: boolean;
  readonly revision: string;
}

async function tabs(): Promise<Tab[]> {
  const state = await call(client, 'session', { action: 'get_state' });
  return (state.data as { windows: { tabs: Tab[] }[] }).windows.flatMap((w) => w.tabs);
}

async function tabOf(name: string): Promise<string> {
  const found = (await tabs()).find((t) => t.filePath === at(name));
  if (found) return found.id;
  return (await call(client, 'workspace', { action: 'open', filePath: at(name) })).data.tabId as string;
}

async function read(name: string): Promise<{ content: string; revision: string; dirty: boolean }> {
  const result = await call(client, 'document', { action: 'read', tabId: await tabOf(name) });
  expect(result.isError).toBe(false);
  return result.data as { content: string; revision: string; dirty: boolean };
}

async function write(name: string, content: string, expected?: string): Promise<Record<string, unknown>> {
  const result = await call(client, 'document', {
    action: 'write',
    tabId: await tabOf(name),
    content,
    ...(expected === undefined ? {} : { expected_revision: expected }),
  });
  return result.data;
}

interface EdgeRow {
  readonly upstream_path: string;
  readonly downstream_path: string;
  readonly pinned: string;
  readonly state: string;
  readonly txf: string;
  readonly input: number;
}

async function edges(): Promise<EdgeRow[]> {
  const result = await call(client, 'coherence', { action: 'edges', workspace_root: workspace });
  expect(result.isError).toBe(false);
  return JSON.parse(result.text) as EdgeRow[];
}

interface LedgerLine {
  readonly kind: string;
  readonly body: {
    readonly inputs?: { object: string; revision: string; role: string }[];
    readonly outputs?: { object: string; revision: string }[];
    readonly agent?: { type: string };
    readonly intent?: { kind: string };
    readonly confidence?: string;
  };
}

async function ledger(): Promise<LedgerLine[]> {
  const folder = at('.vmark/ledger');
  const names = await readdir(folder).catch(() => [] as string[]);
  const text = (
    await Promise.all(
      names.filter((n) => n.endsWith('.jsonl')).map((n) => readFile(path.join(folder, n), 'utf8')),
    )
  ).join('');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as LedgerLine);
}

const idOf = (text: string): string | null => ID_LINE.exec(text)?.[1] ?? null;
const transformations = async () => (await ledger()).filter((l) => l.kind === 'transformation');
/** What the AI wrote (not the outside edits a capture or scan observed). */
const writes = async () => (await transformations()).filter((t) => t.body.agent?.type === 'model');

/** The client makes chapter 3 from Elena's sheet: read both, write the chapter. */
async function deriveChapter(): Promise<{ elenaRead: string }> {
  const elena = await read('characters/elena.md');
  await read('scenes/ch3.md');
  expect(await write('scenes/ch3.md', '# Chapter 3\n\nElena, green-eyed, forged a blade.\n')).toMatchObject({
    saved: true,
  });
  // The capture runs once the write is on disk; the edges call waits for it.
  expect(await edges()).toEqual([]);
  return { elenaRead: elena.revision };
}

describe('a derivation from documents without an identity', () => {
  it('records the sources as inputs, gives them an identity on disk, and leaves every tab clean', async () => {
    await start();
    const { elenaRead } = await deriveChapter();

    const [txf] = await writes();
    expect(txf?.body).toMatchObject({ agent: { type: 'model' }, confidence: 'inferred' });
    expect(txf?.body.inputs).toHaveLength(1);
    const elenaId = idOf(await disk('characters/elena.md'));
    const chapterId = idOf(await disk('scenes/ch3.md'));
    expect(elenaId).not.toBeNull();
    expect(txf?.body.inputs?.[0]).toMatchObject({ object: elenaId, role: 'direct' });
    expect(txf?.body.outputs?.[0]).toMatchObject({ object: chapterId });

    // Only identity lines were added, each above the bytes as they were (or as written).
    expect(await disk('characters/elena.md')).toBe(`---\nvmark:\n  id: ${elenaId}\n---\n${ELENA}`);
    expect(await disk('scenes/ch3.md')).toBe(
      `---\nvmark:\n  id: ${chapterId}\n---\n# Chapter 3\n\nElena, green-eyed, forged a blade.\n`,
    );
    // What the assistant sees is what is on disk, with no unsaved changes it did not make.
    await eventually(
      async () => (await read('characters/elena.md')).content === (await disk('characters/elena.md')),
    );
    for (const name of ['characters/elena.md', 'scenes/ch3.md']) {
      expect(await read(name)).toMatchObject({ content: await disk(name), dirty: false });
    }
    expect((await tabs()).every((t) => !t.dirty)).toBe(true);
    // The identity was the host's work: the revision the client read still holds.
    expect((await read('characters/elena.md')).revision).toBe(elenaRead);
    const status = await call(client, 'coherence', { action: 'status', workspace_root: workspace });
    expect(JSON.parse(status.text)).toMatchObject({ initialized: true, objects: 2, open_items: 0 });
  });

  it('keeps a source’s identity when it is rewritten whole without its front matter', async () => {
    await start();
    const { elenaRead } = await deriveChapter();
    const elenaId = idOf(await disk('characters/elena.md'));
    const pinned = (await writes())[0]!.body.inputs![0]!.revision;

    // Written with the revision read before the identity came: not STALE.
    const rewritten = await write('characters/elena.md', '# Elena\n\nEyes: blue.\n', elenaRead);
    expect(rewritten).toMatchObject({ saved: true });
    expect(await disk('characters/elena.md')).toBe(
      `---\nvmark:\n  id: ${elenaId}\n---\n# Elena\n\nEyes: blue.\n`,
    );

    const stale = await edges();
    expect(stale).toEqual([
      expect.objectContaining({
        upstream_path: 'characters/elena.md',
        downstream_path: 'scenes/ch3.md',
        pinned,
        state: 'version-stale',
      }),
    ]);
    const status = await call(client, 'coherence', { action: 'status', workspace_root: workspace });
    expect(JSON.parse(status.text)).toMatchObject({ objects: 2, open_items: 1 });
  });

  it('regenerating the derived document without front matter keeps its identity and retires its old edges', async () => {
    await start();
    await deriveChapter();
    const chapterId = idOf(await disk('scenes/ch3.md'));
    await write('characters/elena.md', '# Elena\n\nEyes: grey.\n');
    expect(await edges()).toHaveLength(1);
    // Read the new sheet, write the chapter again from nothing but the text.
    await read('characters/elena.md');
    await write('scenes/ch3.md', '# Chapter 3\n\nElena, grey-eyed, forged a blade.\n');
    expect(idOf(await disk('scenes/ch3.md'))).toBe(chapterId);
    expect(await edges()).toEqual([]);
  });

  it('counts a source read and then closed, giving its file an identity though no tab shows it', async () => {
    await start();
    await read('characters/elena.md');
    const closed = await call(client, 'workspace', {
      action: 'close',
      tabId: await tabOf('characters/elena.md'),
    });
    expect(closed.data).toEqual({ closed: true });
    await write('scenes/ch3.md', '# Chapter 3\n\nFrom the sheet.\n');
    expect(await edges()).toEqual([]);
    const elenaId = idOf(await disk('characters/elena.md'));
    expect(elenaId).not.toBeNull();
    expect((await writes())[0]?.body.inputs?.[0]).toMatchObject({ object: elenaId });
  });

  it('counts a source that changed on disk after it was read: the edge is born stale', async () => {
    await start();
    await writeFile(at('notes.md'), 'Notes, first version.\n');
    await read('notes.md');
    await writeFile(at('notes.md'), 'Notes, second version.\n');
    await write('scenes/ch3.md', '# Chapter 3\n\nFrom the notes.\n');
    expect(await edges()).toEqual([
      expect.objectContaining({
        upstream_path: 'notes.md',
        downstream_path: 'scenes/ch3.md',
        state: 'version-stale',
      }),
    ]);
    // The file got its identity on top of the version now on disk.
    expect(await disk('notes.md')).toBe(
      `---\nvmark:\n  id: ${idOf(await disk('notes.md'))}\n---\nNotes, second version.\n`,
    );
  });

  it('lets a client close a source right after a derivation, and write it with the revision it read', async () => {
    await start();
    const elena = await read('characters/elena.md');
    await write('scenes/ch3.md', '# Chapter 3\n\nFrom the sheet.\n');
    // No moment in which the host's identity work shows as unsaved changes.
    const closed = await call(client, 'workspace', {
      action: 'close',
      tabId: await tabOf('characters/elena.md'),
    });
    expect(closed.data).toEqual({ closed: true });
    await edges();
    const reopened = await read('characters/elena.md');
    expect(await write('characters/elena.md', '# Elena\n\nEyes: hazel.\n', reopened.revision)).toMatchObject({
      saved: true,
    });
    expect(elena.revision).toBeDefined();
  });
});

describe('edits that are not derivations', () => {
  it('a transform after a read neither gives an identity nor records the read as an input', async () => {
    await writeFile(at('b.md'), 'B 的内容\n');
    await writeFile(at('c.md'), '中文,English\n');
    await start(['b.md', 'c.md']);
    await read('b.md');
    const transformed = await call(client, 'document', {
      action: 'transform',
      tabId: await tabOf('c.md'),
      kind: 'cjk-punctuation',
    });
    expect(transformed.isError).toBe(false);
    expect(await disk('c.md')).toBe('中文，English\n');
    expect(idOf(await disk('c.md'))).toBeNull();
    expect(await ledger()).toEqual([]);
    // The read still counts for the client's next real write.
    await write('c.md', '中文，English，derived from B\n');
    await edges();
    expect((await writes())[0]?.body.inputs).toHaveLength(1);
  });

  it('a workflow patch after a read leaves the workflow as patched and the read for the next write', async () => {
    await mkdir(at('.github/workflows'), { recursive: true });
    await writeFile(
      at('.github/workflows/ci.yml'),
      'name: CI\non: push\njobs:\n  build:\n    runs-on: ubuntu-22.04\n',
    );
    await start(['characters/elena.md', '.github/workflows/ci.yml']);
    await read('characters/elena.md');
    const patched = await call(client, 'workflow', {
      action: 'apply_patch',
      tabId: await tabOf('.github/workflows/ci.yml'),
      patches: [{ kind: 'job.set', jobId: 'build', path: 'runs-on', value: 'ubuntu-24.04' }],
    });
    expect(patched.data).toMatchObject({ saved: true });
    expect(await disk('.github/workflows/ci.yml')).toBe(
      'name: CI\non: push\njobs:\n  build:\n    runs-on: ubuntu-24.04\n',
    );
    expect(await ledger()).toEqual([]);
    await write('scenes/ch3.md', '# Chapter 3\n\nFrom the sheet.\n');
    await edges();
    expect((await writes())[0]?.body.inputs).toHaveLength(1);
  });

  it('a transform of a tracked document records its new revision, with no inputs, exactly', async () => {
    await writeFile(at('b.md'), 'B\n');
    await start(['b.md', 'scenes/ch3.md']);
    await read('b.md');
    await write('scenes/ch3.md', '中文,from B\n');
    await read('b.md');
    await call(client, 'document', {
      action: 'transform',
      tabId: await tabOf('scenes/ch3.md'),
      kind: 'cjk-punctuation',
    });
    await edges();
    const last = (await writes()).at(-1)!;
    expect(last.body).toMatchObject({ inputs: [], confidence: 'exact' });
    expect(idOf(await disk('scenes/ch3.md'))).not.toBeNull();
  });
});

describe('only Markdown documents are tracked', () => {
  it('a JSON, a YAML and a text file open as plain text and are never given front matter', async () => {
    await writeFile(at('config.json'), '{"a": 1}\n');
    await writeFile(at('compose.yaml'), 'services:\n  web: {}\n');
    await writeFile(at('notes.txt'), 'plain notes\n');
    await start(['characters/elena.md', 'config.json', 'compose.yaml', 'notes.txt']);
    const kinds = Object.fromEntries((await tabs()).map((t) => [path.basename(t.filePath ?? ''), t.kind]));
    expect(kinds).toEqual({
      'elena.md': 'markdown',
      'config.json': 'text',
      'compose.yaml': 'text',
      'notes.txt': 'text',
    });
    for (const [name, content] of [
      ['config.json', '{"a": 2}\n'],
      ['compose.yaml', 'services:\n  web: {image: x}\n'],
      ['notes.txt', 'plain notes, edited\n'],
    ] as const) {
      await read('characters/elena.md');
      expect(await write(name, content)).toMatchObject({ saved: true });
      expect(await disk(name)).toBe(content);
    }
    expect(await ledger()).toEqual([]);
    expect(idOf(await disk('characters/elena.md'))).toBeNull();
    const refused = await call(client, 'document', {
      action: 'transform',
      tabId: await tabOf('config.json'),
      kind: 'cjk-spacing',
    });
    expect(refused.data).toMatchObject({ error: 'INTERNAL', message: expect.stringContaining('Markdown') });
  });
});

describe('stale after any kind of upstream change', () => {
  it('an outside program editing the sheet on disk', async () => {
    await start();
    await deriveChapter();
    const file = at('characters/elena.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('green', 'amber'));
    expect(await edges()).toEqual([
      expect.objectContaining({ upstream_path: 'characters/elena.md', state: 'version-stale' }),
    ]);
  });

  it('a git checkout of another version of the sheet', async () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: workspace });
    git('init', '-q', '-b', 'main');
    await start();
    await deriveChapter();
    git('add', '.');
    git('commit', '-qm', 'chapter 3 from the sheet');
    // Another branch has another version of the sheet (with its identity, as committed).
    git('checkout', '-qb', 'violet');
    await writeFile(
      at('characters/elena.md'),
      (await disk('characters/elena.md')).replace('green', 'violet'),
    );
    git('commit', '-qam', 'violet');
    git('checkout', '-q', 'main');
    expect(await edges()).toEqual([]);
    // That version of the one file, checked out into the working tree.
    git('checkout', 'violet', '--', 'characters/elena.md');
    expect(await edges()).toEqual([
      expect.objectContaining({ upstream_path: 'characters/elena.md', state: 'version-stale' }),
    ]);
  });
});

describe('bad input', () => {
  it('an output whose front matter is malformed YAML is saved byte for byte and not captured, with a diagnostic', async () => {
    await start();
    await read('characters/elena.md');
    const content = '---\ntitle: [unclosed\n---\n# Chapter 3\n';
    expect(await write('scenes/ch3.md', content)).toMatchObject({ saved: true });
    expect(await disk('scenes/ch3.md')).toBe(content);
    await edges();
    expect(await writes()).toEqual([]);
    await eventually(() => stderr.includes('not valid YAML'));
  });

  it('a duplicate id in two files: the write is saved as written, the capture is held and says why', async () => {
    await start();
    await deriveChapter();
    const copy = await disk('scenes/ch3.md');
    await writeFile(at('scenes/ch3-copy.md'), copy);
    await read('characters/elena.md');
    const before = (await writes()).length;
    expect(await write('scenes/ch3.md', `${copy}More.\n`)).toMatchObject({ saved: true });
    expect(await disk('scenes/ch3.md')).toBe(`${copy}More.\n`);
    await edges();
    expect((await writes()).length).toBe(before);
    await eventually(() => stderr.includes('carried by more than one file'));
  });

  it('a source that is no longer UTF-8 when the derivation is captured is left out, with a diagnostic', async () => {
    await start();
    await read('characters/elena.md');
    await writeFile(at('characters/elena.md'), Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    expect(await write('scenes/ch3.md', '# Chapter 3\n\nFrom the sheet.\n')).toMatchObject({ saved: true });
    await edges();
    expect((await writes())[0]?.body.inputs).toEqual([]);
    expect(await readFile(at('characters/elena.md'))).toEqual(Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    await eventually(() => stderr.includes('is not recorded as an input'));
  });
});
