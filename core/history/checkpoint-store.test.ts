import type * as NodeFs from 'node:fs';
import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { crc32 } from 'node:zlib';
import { ownerTag, thisProcess } from '../vault/process-owner.js';
import { TEMP_SUFFIX } from '../vault/temp-files.js';
import { type CheckpointEntry, serializeCheckpointFile, serializeEntry } from './checkpoint-entry.js';
import {
  CheckpointStore,
  type CheckpointStoreOptions,
  type NewCheckpoint,
  UnknownCheckpointError,
} from './checkpoint-store.js';

/** Called with each path the code under test opens synchronously (the index's appends); may throw. */
const syncOpens = vi.hoisted(() => ({ seen: undefined as ((file: string) => void) | undefined }));
/** Called with each synchronous rename (from, to) before it is made (a checkpoint's text file); may throw. */
const syncRenames = vi.hoisted(() => ({
  seen: undefined as ((from: string, to: string) => void) | undefined,
}));
/** How many synchronous reads were made (the index append's look at its last byte). */
const syncReads = vi.hoisted(() => ({ count: 0 }));
/** Called with each synchronous unlink before it is made (the prune's removals); may act on the file first. */
const syncUnlinks = vi.hoisted(() => ({ seen: undefined as ((file: string) => void) | undefined }));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof NodeFs>();
  const readSync = ((...args: Parameters<typeof actual.readSync>) => {
    syncReads.count += 1;
    return actual.readSync(...args);
  }) as typeof actual.readSync;
  const unlinkSync: typeof actual.unlinkSync = (file) => {
    syncUnlinks.seen?.(String(file));
    actual.unlinkSync(file);
  };
  const openSync: typeof actual.openSync = (file, ...rest) => {
    syncOpens.seen?.(String(file));
    return actual.openSync(file, ...rest);
  };
  const renameSync: typeof actual.renameSync = (from, to) => {
    syncRenames.seen?.(String(from), String(to));
    actual.renameSync(from, to);
  };
  return {
    ...actual,
    default: { ...actual, openSync, readSync, renameSync, unlinkSync },
    openSync,
    readSync,
    renameSync,
    unlinkSync,
  };
});

let home: string;
let folder: string;
let index: string;

beforeEach(async () => {
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-ckpt-')));
  folder = path.join(home, 'checkpoints');
  index = path.join(folder, 'index.jsonl');
});

afterEach(async () => {
  vi.restoreAllMocks();
  syncOpens.seen = undefined;
  syncRenames.seen = undefined;
  syncUnlinks.seen = undefined;
  syncReads.count = 0;
  await fs.rm(home, { recursive: true, force: true });
});

/** The next synchronous rename (a checkpoint's text file put in place) fails with `error`. */
function failNextRename(error: Error): void {
  syncRenames.seen = () => {
    syncRenames.seen = undefined;
    throw error;
  };
}

function storeWith(options: Partial<CheckpointStoreOptions> = {}): CheckpointStore {
  return new CheckpointStore({ home, ...options });
}

function edit(contentBefore: string, more: Partial<NewCheckpoint> = {}): NewCheckpoint {
  return {
    tabId: 'tab-1',
    filePath: '/notes/a.md',
    tool: 'document.write',
    description: 'Wrote document (+1 chars, was 0, now 1)',
    revisionBefore: 'rev-AAAAAAAA',
    revisionAfter: 'rev-BBBBBBBB',
    contentBefore,
    ...more,
  };
}

async function filesIn(dir: string): Promise<string[]> {
  return (await fs.readdir(dir)).sort();
}

describe('CheckpointStore', () => {
  it('appends, lists newest first, and gets an entry with the text it replaced', async () => {
    const store = storeWith();
    expect(await store.list()).toEqual([]);
    const first = await store.append(edit('# 第一版\n', { createdAt: new Date('2025-01-01T10:00:00Z') }));
    const second = await store.append(edit('second', { tabId: null, filePath: null, tool: 'selection.set' }));

    expect(first).toEqual({
      id: expect.stringMatching(/^ckpt-[0-9a-z]{17}$/),
      createdAt: '2025-01-01T10:00:00.000Z',
      tabId: 'tab-1',
      filePath: '/notes/a.md',
      tool: 'document.write',
      description: 'Wrote document (+1 chars, was 0, now 1)',
      revisionBefore: 'rev-AAAAAAAA',
      revisionAfter: 'rev-BBBBBBBB',
      // UTF-8 bytes, not characters.
      bytesBefore: Buffer.byteLength('# 第一版\n'),
    });
    // Ids sort by time.
    expect(first.id < second.id).toBe(true);
    expect(await store.list()).toEqual([second, first]);
    expect(await store.get(first.id)).toEqual({ ...first, contentBefore: '# 第一版\n' });
    expect(await store.get(second.id)).toEqual({ ...second, contentBefore: 'second' });

    // Another store over the same folder (another process) sees the same history.
    expect(await storeWith().list()).toEqual([second, first]);
    expect(await filesIn(folder)).toEqual([`${first.id}.ckpt`, `${second.id}.ckpt`, 'index.jsonl'].sort());
    // Each text file carries its own index line first (ADR 79), with its text's CRC-32 (ADR 102).
    expect(await fs.readFile(path.join(folder, `${first.id}.ckpt`), 'utf8')).toBe(
      `${JSON.stringify(first).slice(0, -1)},"crc32":${crc32('# 第一版\n')}}\n# 第一版\n`,
    );
  });

  it('tells listeners of each recorded checkpoint, never of a failed one, until disposed', async () => {
    const store = storeWith();
    const seen: string[] = [];
    const subscription = store.onDidAppend((entry) => seen.push(entry.id));
    // A throwing listener neither fails the append nor keeps the others from hearing of it.
    store.onDidAppend(() => {
      throw new Error('panel gone');
    });
    const first = await store.append(edit('one'));
    failNextRename(Object.assign(new Error('disk full'), { code: 'ENOSPC' }));
    await expect(store.append(edit('two'))).rejects.toThrow('disk full');
    expect(seen).toEqual([first.id]);
    subscription.dispose();
    await store.append(edit('three'));
    expect(seen).toEqual([first.id]);
  });

  it('keeps the text out of the index', async () => {
    const store = storeWith();
    await store.append(edit('SECRET TEXT'));
    const line = (await fs.readFile(index, 'utf8')).trim();
    expect(line).not.toContain('SECRET');
    expect(Object.keys(JSON.parse(line) as object)).toEqual([
      'id',
      'createdAt',
      'tabId',
      'filePath',
      'tool',
      'description',
      'revisionBefore',
      'revisionAfter',
      'bytesBefore',
    ]);
  });

  it('writes the text file before the index line that names it', async () => {
    const store = storeWith();
    await store.append(edit('one'));
    const seen: string[][] = [];
    syncOpens.seen = (file) => {
      if (file === index) seen.push(readdirSync(folder));
    };
    const entry = await store.append(edit('two'));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain(`${entry.id}.ckpt`);
  });

  it('adds no index line when the text cannot be written', async () => {
    const store = storeWith();
    const kept = await store.append(edit('one'));
    const before = await fs.readFile(index, 'utf8');
    failNextRename(Object.assign(new Error('disk full'), { code: 'ENOSPC' }));
    await expect(store.append(edit('two'))).rejects.toThrow('disk full');
    expect(await fs.readFile(index, 'utf8')).toBe(before);
    expect((await filesIn(folder)).filter((n) => n.endsWith('.ckpt'))).toEqual([`${kept.id}.ckpt`]);
    // The store still works after a failure.
    await store.append(edit('three'));
    expect(await store.list()).toHaveLength(2);
  });

  it('keeps a checkpoint whose index line cannot be appended: durable, reported, and indexed by the next append', async () => {
    const store = storeWith();
    const first = await store.append(edit('one'));
    syncOpens.seen = (file) => {
      if (file === index) throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
    };
    const onDurable = vi.fn();
    const appended = store.append(edit('two'), onDurable);
    await expect(appended).rejects.toThrow('no space');
    // Its text is on disk and names itself: a write waiting for it was answered, and rightly.
    expect(onDurable).toHaveBeenCalledOnce();
    const listed = await storeWith().list();
    expect(listed).toHaveLength(2);
    expect(listed[1]).toEqual(first);
    expect(await store.get(listed[0]!.id)).toMatchObject({ contentBefore: 'two' });
    expect(await fs.readFile(index, 'utf8')).not.toContain(listed[0]!.id);
    syncOpens.seen = undefined;
    // The next append reads the history whole and writes the missing line.
    const third = await store.append(edit('three'));
    const lines = (await fs.readFile(index, 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { id: string }).id).sort()).toEqual(
      [first.id, listed[0]!.id, third.id].sort(),
    );
    expect(await store.list()).toEqual([third, listed[0], first]);
  });

  it('says a checkpoint is durable once its text file is on disk, before its index line and the prune', async () => {
    const store = storeWith({ checkpointRetention: { maxCount: 1, maxBytes: 1000 } });
    const first = await store.append(edit('one'));
    let seenWhenDurable: string[] = [];
    let listedWhenDurable: Promise<string[]> = Promise.resolve([]);
    const second = store.append(edit('two'), () => {
      seenWhenDurable = [readFileSync(index, 'utf8'), ...readdirSync(folder)];
      // Another process reading the history then finds it, from its text file.
      listedWhenDurable = storeWith()
        .list()
        .then((entries) => entries.map((e) => e.id));
    });
    const entry = await second;
    expect(seenWhenDurable[0]).toContain(first.id);
    expect(seenWhenDurable[0]).not.toContain(entry.id);
    expect(seenWhenDurable).toContain(`${entry.id}.ckpt`);
    expect(seenWhenDurable).toContain(`${first.id}.ckpt`);
    expect(await listedWhenDurable).toContain(entry.id);
    expect(await store.list()).toEqual([entry]);
  });

  it('never says a checkpoint that failed is durable', async () => {
    const store = storeWith();
    await store.append(edit('one'));
    failNextRename(Object.assign(new Error('disk full'), { code: 'ENOSPC' }));
    const onDurable = vi.fn();
    await expect(store.append(edit('two'), onDurable)).rejects.toThrow('disk full');
    expect(onDurable).not.toHaveBeenCalled();
  });

  it('ignores a torn last line and starts the next append on a new line', async () => {
    const store = storeWith();
    const first = await store.append(edit('one'));
    // What a crash in the middle of an append leaves: half a line, no newline.
    const torn = '{"id":"ckpt-0000000000000000","createdAt":"2025-';
    await fs.appendFile(index, torn);
    expect(await store.list()).toEqual([first]);

    const second = await store.append(edit('two'));
    expect(await store.list()).toEqual([second, first]);
    const lines = (await fs.readFile(index, 'utf8')).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe(torn);
    expect(JSON.parse(lines[2]!)).toMatchObject({ id: second.id });
    expect(lines[3]).toBe('');
    expect(await store.get(second.id)).toMatchObject({ contentBefore: 'two' });
  });

  it('reads back no byte of an index it wrote the end of, and still mends one torn since', async () => {
    const store = storeWith();
    const first = await store.append(edit('one'));
    await store.append(edit('two'));
    syncReads.count = 0;
    const third = await store.append(edit('three'));
    // Its own last line ends the index: nothing to look at.
    expect(syncReads.count).toBe(0);
    // Another process dies in the middle of its append: the index grew, its end is looked at.
    const torn = '{"id":"ckpt-0000000000000000","createdAt":"2025-';
    await fs.appendFile(index, torn);
    const fourth = await store.append(edit('four'));
    expect(syncReads.count).toBe(1);
    const lines = (await fs.readFile(index, 'utf8')).split('\n');
    expect(lines[3]).toBe(torn);
    expect(JSON.parse(lines[4]!)).toMatchObject({ id: fourth.id });
    expect((await store.list()).map((e) => e.id)).toEqual([
      fourth.id,
      third.id,
      expect.any(String),
      first.id,
    ]);
  });

  it('skips lines that are not whole entries anywhere in the index', async () => {
    const store = storeWith();
    const entry = await store.append(edit('one'));
    const line = await fs.readFile(index, 'utf8');
    await fs.writeFile(
      index,
      ['not json', '{"id":"../../etc/passwd"}', '[]', 'null', line.trim(), '', '{"id":'].join('\n'),
    );
    expect(await store.list()).toEqual([entry]);
  });

  it('keeps the newest checkpoints by count and removes the text of the rest', async () => {
    const store = storeWith({ checkpointRetention: { maxCount: 3, maxBytes: 1024 } });
    const entries = [];
    for (let i = 0; i < 5; i++) entries.push(await store.append(edit(`text ${i}`)));
    const kept = entries.slice(2).reverse();
    expect(await store.list()).toEqual(kept);
    expect(await filesIn(folder)).toEqual([...kept.map((e) => `${e.id}.ckpt`), 'index.jsonl'].sort());
    await expect(store.get(entries[0]!.id)).rejects.toBeInstanceOf(UnknownCheckpointError);
    expect(await store.get(entries[4]!.id)).toMatchObject({ contentBefore: 'text 4' });
  });

  it('keeps the newest checkpoints by bytes, and always the newest one', async () => {
    const store = storeWith({ checkpointRetention: { maxCount: 100, maxBytes: 10 } });
    const a = await store.append(edit('aaaa'));
    const b = await store.append(edit('bbbb'));
    expect(await store.list()).toEqual([b, a]);
    const c = await store.append(edit('cccc'));
    // 12 bytes would pass the limit: the oldest goes.
    expect(await store.list()).toEqual([c, b]);
    // Larger than the limit on its own: kept anyway, so the edit just recorded can still be undone.
    const big = await store.append(edit('x'.repeat(50)));
    expect(await store.list()).toEqual([big]);
    expect(await filesIn(folder)).toEqual([`${big.id}.ckpt`, 'index.jsonl']);
  });

  it('lets the history grow a tenth past a limit before it prunes, then back to the limit', async () => {
    const store = storeWith({ checkpointRetention: { maxCount: 20, maxBytes: 1_000_000 } });
    const entries = [];
    for (let i = 0; i < 22; i++) entries.push(await store.append(edit(`text ${i}`)));
    const before = await fs.stat(index);
    expect(await store.list()).toHaveLength(22);
    entries.push(await store.append(edit('text 22')));
    expect(await store.list()).toEqual(entries.slice(3).reverse());
    // Rewritten by the prune (a new file), the pruned texts gone.
    expect((await fs.stat(index)).ino).not.toBe(before.ino);
    expect((await filesIn(folder)).filter((n) => n.endsWith('.ckpt'))).toHaveLength(20);
  });

  it('prunes by whichever limit is smaller', async () => {
    const store = storeWith({ checkpointRetention: { maxCount: 2, maxBytes: 1000 } });
    for (let i = 0; i < 4; i++) await store.append(edit('12345'));
    expect(await store.list()).toHaveLength(2);
    const tight = storeWith({ checkpointRetention: { maxCount: 100, maxBytes: 5 } });
    const last = await tight.append(edit('12345'));
    expect(await tight.list()).toEqual([last]);
  });

  it('sweeps text and temp files left by crashed appends when it prunes', async () => {
    const store = storeWith({ checkpointRetention: { maxCount: 1, maxBytes: 1000 } });
    await store.append(edit('one'));
    // Text without a line, as a crash before ADR 79 left it: nothing says what it was.
    await fs.writeFile(path.join(folder, 'ckpt-00000000000000000.md'), 'orphan');
    // A file named as a checkpoint that is not one.
    await fs.writeFile(path.join(folder, 'ckpt-00000000000000001.ckpt'), 'not a checkpoint');
    await fs.writeFile(path.join(folder, `.ckpt-x.ckpt.abc${TEMP_SUFFIX}`), 'half');
    await fs.writeFile(path.join(folder, 'notes.txt'), 'not ours');
    expect(await store.list()).toHaveLength(1);
    const last = await store.append(edit('two'));
    expect(await filesIn(folder)).toEqual([`${last.id}.ckpt`, 'index.jsonl', 'notes.txt']);
  });

  it('takes a text another hand removed during its prune as removed, and still rewrites the index', async () => {
    const store = storeWith({ checkpointRetention: { maxCount: 1, maxBytes: 1000 } });
    const first = await store.append(edit('one'));
    const firstText = path.join(folder, `${first.id}.ckpt`);
    const removed: string[] = [];
    // Another process's prune gets there first: the file is gone when this one moves it to the
    // spares (ADR 102), and so when it then unlinks it.
    syncRenames.seen = (from) => {
      if (from !== firstText) return;
      syncRenames.seen = undefined;
      unlinkSync(from);
      removed.push(from);
    };
    const last = await store.append(edit('two'));
    expect(removed).toEqual([firstText]);
    expect(await store.list()).toEqual([last]);
    expect(await filesIn(folder)).toEqual([`${last.id}.ckpt`, 'index.jsonl']);
  });

  it('fails its prune, as before, on a folder where a stray file was, and keeps the checkpoint', async () => {
    const store = storeWith({ checkpointRetention: { maxCount: 1, maxBytes: 1000 } });
    await store.append(edit('one'));
    await fs.mkdir(path.join(folder, `.ckpt-x.ckpt.abc${TEMP_SUFFIX}`));
    // Read whole again (another process changed the folder): the prune runs on the next append.
    await expect(store.append(edit('two'))).rejects.toThrow();
    const [newest] = await store.list();
    expect((await store.get(newest!.id)).contentBefore).toBe('two');
  });

  it('reads a history written before ADR 79 (text files without their entry) and prunes it like the rest', async () => {
    // As vmark wrote it then: `<id>.md` holding the text alone, and its line in the index.
    await fs.mkdir(folder, { recursive: true });
    const legacy = (n: number, text: string): CheckpointEntry => ({
      id: `ckpt-0${n}000000000000000`,
      createdAt: `2025-01-0${n}T10:00:00.000Z`,
      tabId: null,
      filePath: '/notes/a.md',
      tool: 'document.write',
      description: `legacy ${n}`,
      revisionBefore: 'rev-AAAAAAAA',
      revisionAfter: 'rev-BBBBBBBB',
      bytesBefore: Buffer.byteLength(text),
    });
    const old = [legacy(1, 'first text\n'), legacy(2, '第二\n')];
    await fs.writeFile(path.join(folder, `${old[0]!.id}.md`), 'first text\n');
    await fs.writeFile(path.join(folder, `${old[1]!.id}.md`), '第二\n');
    await fs.writeFile(index, old.map((e) => serializeEntry(e) + '\n').join(''));

    const store = storeWith({ checkpointRetention: { maxCount: 3, maxBytes: 1000 } });
    expect(await store.list()).toEqual([...old].reverse());
    expect(await store.get(old[1]!.id)).toEqual({ ...old[1], contentBefore: '第二\n' });
    const added = await store.append(edit('new'));
    expect(await store.list()).toEqual([added, old[1], old[0]]);
    expect(await store.get(old[0]!.id)).toMatchObject({ contentBefore: 'first text\n' });
    // Past the limit: the oldest legacy text goes, the other legacy one stays.
    const newer = await store.append(edit('newer'));
    expect(await store.list()).toEqual([newer, added, old[1]]);
    expect(await filesIn(folder)).toEqual(
      [`${old[1]!.id}.md`, `${added.id}.ckpt`, `${newer.id}.ckpt`, 'index.jsonl'].sort(),
    );
    const last = await store.append(edit('last'));
    expect(await store.list()).toEqual([last, newer, added]);
    expect(await filesIn(folder)).toEqual(
      [`${added.id}.ckpt`, `${newer.id}.ckpt`, `${last.id}.ckpt`, 'index.jsonl'].sort(),
    );
  });

  it('finds again a checkpoint whose index line a crash left out, in its place, and indexes it on the next append', async () => {
    const store = storeWith({ checkpointRetention: { maxCount: 4, maxBytes: 1000 } });
    const first = await store.append(edit('one', { createdAt: new Date('2025-01-01T10:00:00Z') }));
    const third = await store.append(edit('three', { createdAt: new Date('2025-01-03T10:00:00Z') }));
    // What a crash right after the write's answer leaves: the text file, and no line.
    const lost: CheckpointEntry = {
      ...first,
      id: 'ckpt-0000000000000000b',
      createdAt: '2025-01-02T10:00:00.000Z',
      description: 'the lost one',
      bytesBefore: Buffer.byteLength('two'),
    };
    await fs.writeFile(path.join(folder, `${lost.id}.ckpt`), serializeCheckpointFile(lost, 'two'));
    const indexBefore = await fs.readFile(index, 'utf8');

    // Another process reading the history (`vmark checkpoints list`) finds it, without writing.
    expect(await storeWith().list()).toEqual([third, lost, first]);
    expect(await storeWith().get(lost.id)).toEqual({ ...lost, contentBefore: 'two' });
    expect(await fs.readFile(index, 'utf8')).toBe(indexBefore);

    // A new store's first append indexes it; a prune keeps it as the checkpoint it is.
    const fresh = storeWith({ checkpointRetention: { maxCount: 4, maxBytes: 1000 } });
    const fourth = await fresh.append(edit('four'));
    expect(await fs.readFile(index, 'utf8')).toContain(serializeEntry(lost));
    expect(await fresh.list()).toEqual([fourth, third, lost, first]);
    const fifth = await fresh.append(edit('five'));
    expect(await fresh.list()).toEqual([fifth, fourth, third, lost]);
    const sixth = await fresh.append(edit('six'));
    expect(await fresh.list()).toEqual([sixth, fifth, fourth, third]);
    expect(await filesIn(folder)).not.toContain(`${lost.id}.ckpt`);
  });

  it('finds again a checkpoint left in the synced temp file of an ended process (its rename undone by a power cut)', async () => {
    const store = storeWith();
    const first = await store.append(edit('one'));
    // A process that has ended: its pid is gone.
    const dead = ownerTag({ ...thisProcess(), pid: spawnSync(process.execPath, ['-e', '']).pid });
    const entry = (id: string, text: string): CheckpointEntry => ({
      ...first,
      id,
      // Made just before the first one.
      createdAt: new Date(Date.parse(first.createdAt) - 1).toISOString(),
      bytesBefore: Buffer.byteLength(text),
    });
    const whole = entry('ckpt-0000000000000000c', 'the replaced text\n');
    const tempOf = (id: string, owner: string) =>
      path.join(folder, `.${id}.ckpt.${owner}.0123456789ab${TEMP_SUFFIX}`);
    await fs.writeFile(tempOf(whole.id, dead), serializeCheckpointFile(whole, 'the replaced text\n'));
    // Cut short while it was written: not whole, not taken.
    const torn = entry('ckpt-0000000000000000d', 'a longer text\n');
    await fs.writeFile(tempOf(torn.id, dead), serializeCheckpointFile(torn, 'a longer text\n').slice(0, -4));
    // Whole, but its process (this one) is alive: it may be renamed any moment; not taken.
    const live = entry('ckpt-0000000000000000e', 'live\n');
    await fs.writeFile(tempOf(live.id, ownerTag()), serializeCheckpointFile(live, 'live\n'));

    expect(await storeWith().list()).toEqual([first, whole]);
    expect(await storeWith().get(whole.id)).toEqual({ ...whole, contentBefore: 'the replaced text\n' });
    // A store's first append puts it in its place and indexes it.
    const second = await storeWith().append(edit('two'));
    expect(await filesIn(folder)).toContain(`${whole.id}.ckpt`);
    expect(await fs.readFile(index, 'utf8')).toContain(serializeEntry(whole));
    expect(await store.list()).toEqual([second, first, whole]);
  });

  it('passes over an index line whose text file is gone, and drops it when it prunes', async () => {
    const store = storeWith({ checkpointRetention: { maxCount: 2, maxBytes: 1000 } });
    const gone = await store.append(edit('one'));
    const kept = await store.append(edit('two'));
    await fs.rm(path.join(folder, `${gone.id}.ckpt`));
    expect(await store.list()).toEqual([kept]);
    await expect(store.get(gone.id)).rejects.toThrow(`checkpoint ${gone.id} was pruned`);
    const third = await store.append(edit('three'));
    expect(await store.list()).toEqual([third, kept]);
    const fourth = await store.append(edit('four'));
    expect(await store.list()).toEqual([fourth, third]);
    expect(await fs.readFile(index, 'utf8')).not.toContain(gone.id);
  });

  it('reads the index again only when another process changed it', async () => {
    const store = storeWith({ checkpointRetention: { maxCount: 6, maxBytes: 1000 } });
    const readFile = fs.readFile.bind(fs);
    let indexReads = 0;
    vi.spyOn(fs, 'readFile').mockImplementation(((file: string, options: unknown) => {
      if (file === index) indexReads++;
      return readFile(file, options as BufferEncoding);
    }) as typeof fs.readFile);
    await store.append(edit('one'));
    expect(indexReads).toBe(1);
    await store.append(edit('two'));
    await store.append(edit('three'));
    expect(indexReads).toBe(1);
    // Another store (process) appends: this one's next append reads the history again.
    await storeWith().append(edit('four'));
    const before = indexReads;
    await store.append(edit('five'));
    expect(indexReads).toBe(before + 1);
    await store.append(edit('six'));
    expect(indexReads).toBe(before + 1);
    // Past the limit by what it knows (limits under 10 have no slack): it reads the history and prunes.
    await store.append(edit('seven'));
    expect(indexReads).toBe(before + 2);
    expect(await store.list()).toHaveLength(6);
  });

  it('refuses unknown, malformed and pruned ids with a clear error', async () => {
    const store = storeWith({ checkpointRetention: { maxCount: 1, maxBytes: 1000 } });
    await expect(store.get('ckpt-00000000000000000')).rejects.toThrow(
      'no checkpoint with id ckpt-00000000000000000',
    );
    const gone = await store.append(edit('one'));
    await store.append(edit('two'));
    for (const id of [gone.id, '../index.jsonl', 'ckpt-', '', 'CKPT-00000000000000000']) {
      await expect(store.get(id)).rejects.toBeInstanceOf(UnknownCheckpointError);
    }
    await expect(store.get('../index')).rejects.toThrow('"../index" is not a checkpoint id');
  });

  it('reports text pruned by another process between reading the index and the text', async () => {
    const store = storeWith();
    const entry = await store.append(edit('one'));
    await fs.rm(path.join(folder, `${entry.id}.ckpt`));
    await expect(store.get(entry.id)).rejects.toThrow(`checkpoint ${entry.id} was pruned`);
    // An index line whose text is gone is passed over.
    expect(await store.list()).toEqual([]);
  });

  it('writes the checkpoints that arrive during a write together: one index append for all of them', async () => {
    const store = storeWith();
    let indexAppends = 0;
    syncOpens.seen = (file) => {
      if (file === index) indexAppends++;
    };
    // The first starts a write at once; the other ten wait for it, and go in the next one.
    const appended = await Promise.all(Array.from({ length: 11 }, (_, i) => store.append(edit(`text ${i}`))));
    expect(indexAppends).toBe(2);
    expect(await store.list()).toEqual([...appended].reverse());
    for (const [i, entry] of appended.entries())
      expect(await store.get(entry.id)).toMatchObject({ contentBefore: `text ${i}` });
  });

  it('never writes, nor keeps waiting, the text of a checkpoint its retention would prune at once', async () => {
    const store = storeWith({ checkpointRetention: { maxCount: 3, maxBytes: 1024 } });
    const texts: string[] = [];
    syncRenames.seen = (_from, to) => {
      if (to.endsWith('.ckpt')) texts.push(path.basename(to));
    };
    const appended = await Promise.all(Array.from({ length: 11 }, (_, i) => store.append(edit(`text ${i}`))));
    // The first one's write, then only the newest three of the ten that waited for it (written
    // side by side, so in any order).
    const name = (entry: (typeof appended)[number]) => `${entry.id}.ckpt`;
    expect(texts[0]).toBe(name(appended[0]!));
    expect(texts.slice(1).sort()).toEqual(appended.slice(8).map(name).sort());
    expect(await store.list()).toEqual(appended.slice(8).reverse());
    await expect(store.get(appended[5]!.id)).rejects.toBeInstanceOf(UnknownCheckpointError);
  });

  it('loses no append when several stores (processes) share one folder and prune', async () => {
    const limits = { checkpointRetention: { maxCount: 5, maxBytes: 1000 } };
    const [one, two] = [storeWith(limits), storeWith(limits)];
    const appended = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? one : two).append(edit(`text ${i}`))),
    );
    const listed = await one.list();
    expect(listed).toHaveLength(5);
    for (const entry of listed) expect(appended).toContainEqual(entry);
    expect((await filesIn(folder)).filter((n) => n.endsWith('.ckpt'))).toHaveLength(5);
    for (const entry of listed) await one.get(entry.id);
    expect(await filesIn(folder)).not.toContain('index.lock');
  });

  describe('spares: pruned files written over by new checkpoints (ADR 102)', () => {
    const spareFolder = () => path.join(home, 'checkpoint-spares');
    const inode = async (file: string) => (await fs.stat(file)).ino;

    it('keeps a pruned checkpoint file as a spare and writes the next checkpoint over it: no new inode', async () => {
      const store = storeWith({ checkpointRetention: { maxCount: 2, maxBytes: 1000 } });
      const first = await store.append(edit('one'));
      const firstInode = await inode(path.join(folder, `${first.id}.ckpt`));
      const second = await store.append(edit('two'));
      const third = await store.append(edit('three'));
      // The first was pruned: its file is a spare, out of the history's folder.
      expect(await filesIn(folder)).toEqual([`${second.id}.ckpt`, `${third.id}.ckpt`, 'index.jsonl'].sort());
      const [spare] = await filesIn(spareFolder());
      expect(await inode(path.join(spareFolder(), spare!))).toBe(firstInode);

      const fourth = await store.append(edit('four, a longer text than the one before'));
      // Written over the first's file, cut to its own length; the second's file is the spare now.
      expect(await inode(path.join(folder, `${fourth.id}.ckpt`))).toBe(firstInode);
      expect(await filesIn(spareFolder())).toHaveLength(1);
      expect(await storeWith().list()).toEqual([fourth, third]);
      expect(await storeWith().get(fourth.id)).toEqual({
        ...fourth,
        contentBefore: 'four, a longer text than the one before',
      });
      const fifth = await store.append(edit('5'));
      expect(await storeWith().get(fifth.id)).toEqual({ ...fifth, contentBefore: '5' });
      expect((await fs.stat(path.join(folder, `${fifth.id}.ckpt`))).size).toBe(
        Buffer.byteLength(serializeCheckpointFile(fifth, '5')),
      );
      await expect(store.get(first.id)).rejects.toBeInstanceOf(UnknownCheckpointError);
    });

    it('believes no checkpoint a crash left half written over a spare, and finds the one written whole', async () => {
      const store = storeWith();
      const first = await store.append(edit('one'));
      const dead = ownerTag({ ...thisProcess(), pid: spawnSync(process.execPath, ['-e', '']).pid });
      const tempOf = (id: string) => path.join(folder, `.${id}.ckpt.${dead}.0123456789ab${TEMP_SUFFIX}`);
      const entry = (id: string, text: string): CheckpointEntry => ({
        ...first,
        id,
        createdAt: new Date(Date.parse(first.createdAt) - 1).toISOString(),
        bytesBefore: Buffer.byteLength(text),
      });
      // What the spare held: an older checkpoint of the same size as the new one.
      const old = serializeCheckpointFile(
        entry('ckpt-00000000000000001', 'the OLD text\n'),
        'the OLD text\n',
      );
      // 1. Claimed (renamed to the new checkpoint's temp name), not yet written: the old file.
      await fs.writeFile(tempOf('ckpt-0000000000000000a'), old);
      // 2. The first line and part of the text written, the rest the old text's: the right size.
      const halfEntry = entry('ckpt-0000000000000000b', 'the NEW text\n');
      const half = serializeCheckpointFile(halfEntry, 'the NEW text\n');
      const torn = half.slice(0, half.length - 9) + old.slice(old.length - 9);
      expect(Buffer.byteLength(torn)).toBe(Buffer.byteLength(half));
      await fs.writeFile(tempOf(halfEntry.id), torn);
      // 3. Written whole over a longer old file, not yet cut: the old tail follows.
      const uncutEntry = entry('ckpt-0000000000000000c', 'new\n');
      await fs.writeFile(tempOf(uncutEntry.id), serializeCheckpointFile(uncutEntry, 'new\n') + 'OLD text\n');
      // 4. Written and cut, its rename undone: whole, found as a new file's would be (ADR 79).
      const wholeEntry = entry('ckpt-0000000000000000d', 'the whole text\n');
      await fs.writeFile(tempOf(wholeEntry.id), serializeCheckpointFile(wholeEntry, 'the whole text\n'));
      // 5. Renamed into place with a damaged text: listed from its name, but never restored from.
      const damagedEntry = entry('ckpt-0000000000000000e', 'renamed\n');
      const damaged = serializeCheckpointFile(damagedEntry, 'renamed\n').replace('renamed\n', 'RENAMED\n');
      await fs.writeFile(path.join(folder, `${damagedEntry.id}.ckpt`), damaged);
      await fs.appendFile(index, serializeEntry(damagedEntry) + '\n');

      const reader = storeWith();
      expect((await reader.list()).map((e) => e.id).sort()).toEqual(
        [first.id, wholeEntry.id, damagedEntry.id].sort(),
      );
      expect(await reader.get(wholeEntry.id)).toEqual({ ...wholeEntry, contentBefore: 'the whole text\n' });
      for (const id of ['ckpt-0000000000000000a', halfEntry.id, uncutEntry.id])
        await expect(reader.get(id)).rejects.toBeInstanceOf(UnknownCheckpointError);
      await expect(reader.get(damagedEntry.id)).rejects.toThrow('damaged');
    });

    it('fails a checkpoint whose spare cannot be renamed into place, as a new file would, and leaves no temp file', async () => {
      const store = storeWith({ checkpointRetention: { maxCount: 1, maxBytes: 1000 } });
      await store.append(edit('one'));
      const kept = await store.append(edit('two'));
      expect(await filesIn(spareFolder())).toHaveLength(1);
      syncRenames.seen = (from, to) => {
        if (!to.endsWith('.ckpt') || !from.endsWith(TEMP_SUFFIX)) return;
        syncRenames.seen = undefined;
        throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
      };
      const onDurable = vi.fn();
      await expect(store.append(edit('three'), onDurable)).rejects.toThrow('disk full');
      expect(onDurable).not.toHaveBeenCalled();
      expect(await store.list()).toEqual([kept]);
      expect((await filesIn(folder)).filter((n) => n.endsWith(TEMP_SUFFIX))).toEqual([]);
      expect(await fs.readFile(index, 'utf8')).not.toContain('three');
      const last = await store.append(edit('four'));
      expect(await store.get(last.id)).toMatchObject({ contentBefore: 'four' });
    });

    it('writes through no link or folder in the spares folder, nor a spare another process took: it creates the file', async () => {
      const store = storeWith({ checkpointRetention: { maxCount: 1, maxBytes: 1000 } });
      await store.append(edit('one'));
      await store.append(edit('two'));
      const [spare] = await filesIn(spareFolder());
      // Another process took the spare this store knows of; another hand put a link and a folder there.
      await fs.rename(path.join(spareFolder(), spare!), path.join(home, 'taken'));
      const outside = path.join(home, 'outside.txt');
      await fs.writeFile(outside, 'not vmark');
      await fs.symlink(outside, path.join(spareFolder(), 'zz-link'));
      await fs.mkdir(path.join(spareFolder(), 'zz-folder'));
      // Read whole again (the index changed under it), so it lists the spares folder anew.
      await fs.appendFile(index, '\n');
      await store.append(edit('three'));
      await fs.appendFile(index, '\n');
      const last = await store.append(edit('four'));
      expect(await store.get(last.id)).toMatchObject({ contentBefore: 'four' });
      expect(await fs.readFile(outside, 'utf8')).toBe('not vmark');
      // The spare the other process took is left as it was: the first checkpoint's file.
      expect((await fs.readFile(path.join(home, 'taken'), 'utf8')).endsWith('\none')).toBe(true);
      expect(await filesIn(spareFolder())).toEqual(expect.arrayContaining(['zz-folder', 'zz-link']));
      expect((await filesIn(folder)).filter((n) => n.endsWith(TEMP_SUFFIX))).toEqual([]);
    });

    it('keeps no more than 64 spares, and none of a large text', async () => {
      const many = storeWith({ checkpointRetention: { maxCount: 100, maxBytes: 10_000_000 } });
      for (let i = 0; i < 69; i++) await many.append(edit(`text ${i}`));
      await many.append(edit('x'.repeat(70 * 1024)));
      const tight = storeWith({ checkpointRetention: { maxCount: 1, maxBytes: 10_000_000 } });
      const last = await tight.append(edit('last'));
      expect(await filesIn(spareFolder())).toHaveLength(64);
      expect(await filesIn(folder)).toEqual([`${last.id}.ckpt`, 'index.jsonl']);
      for (const name of await filesIn(spareFolder()))
        expect((await fs.stat(path.join(spareFolder(), name))).size).toBeLessThan(1024);
    });

    it('loses no checkpoint and mixes no texts when two stores (processes) share the spares', async () => {
      const limits = { checkpointRetention: { maxCount: 3, maxBytes: 100_000 } };
      const [one, two] = [storeWith(limits), storeWith(limits)];
      const texts = new Map<string, string>();
      for (let round = 0; round < 4; round++) {
        const appended = await Promise.all(
          Array.from({ length: 6 }, (_, i) => {
            const text = `round ${round} text ${i} `.repeat(i + 1);
            return (i % 2 ? one : two).append(edit(text)).then((entry) => texts.set(entry.id, text));
          }),
        );
        expect(appended).toHaveLength(6);
      }
      const listed = await one.list();
      expect(listed).toHaveLength(3);
      for (const entry of listed) expect((await two.get(entry.id)).contentBefore).toBe(texts.get(entry.id));
      expect((await filesIn(folder)).filter((n) => n.endsWith('.ckpt'))).toHaveLength(3);
      expect((await filesIn(folder)).filter((n) => n.endsWith(TEMP_SUFFIX))).toEqual([]);
    });
  });
});
