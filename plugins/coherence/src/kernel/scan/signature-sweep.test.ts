import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SignatureSweep, statSignature, SweepThread } from './signature-sweep.js';

let root: string;
let threads: SweepThread[] = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'vmark-sweep-'));
});
afterEach(async () => {
  for (const thread of threads) thread.dispose();
  threads = [];
  await rm(root, { recursive: true, force: true });
});

const helper = (chunkFiles: number): SweepThread => {
  const thread = new SweepThread({ chunkFiles, fromFiles: 1, spare: () => true });
  threads.push(thread);
  return thread;
};

/** Files of every kind the sweep tells apart, listed as a walk would list them. */
async function tree(): Promise<string[]> {
  const listed: string[] = [];
  for (let i = 0; i < 40; i++) {
    const rel = `d${i % 3}/f${String(i).padStart(2, '0')}.md`;
    await mkdir(join(root, `d${i % 3}`), { recursive: true });
    await writeFile(join(root, rel), 'x'.repeat(i));
    // An mtime apart from the ctime, so that every field of the signature tells.
    await utimes(join(root, rel), new Date(2_000_000 + i), new Date(3_000_000 + i));
    listed.push(rel);
  }
  await mkdir(join(root, 'folder.md'));
  await symlink(join(root, 'd0/f00.md'), join(root, 'link.md'));
  listed.push('folder.md', 'link.md', 'gone.md');
  return listed;
}

const MAX = 30n; // files f31…f39 are too large

describe('the signature sweep', () => {
  it('gives what statSignature gives, in the listing order, with and without the helper thread', async () => {
    const listed = await tree();
    const expected = listed.map((rel) => statSignature(join(root, rel), MAX));
    // The kinds the read must report are null; plain files within the bound have a signature.
    expect(expected.slice(-3)).toEqual([null, null, null]);
    expect(expected.filter((s) => s !== null)).toHaveLength(31);

    const alone = await new SignatureSweep(root, MAX, 100).finish(listed);
    expect(alone).toEqual(expected);

    // Offered as the listing grows, as the walk does, then finished: each chunk swept once.
    const thread = helper(3);
    const sweep = new SignatureSweep(root, MAX, 100, thread);
    for (let n = 0; n <= listed.length; n += 7) sweep.offer(listed.slice(0, n));
    expect(await sweep.finish(listed)).toEqual(expected);
    // The same thread serves the next walk.
    expect(await new SignatureSweep(root, MAX, 100, thread).finish(listed)).toEqual(expected);
  });

  it('has the helper thread write the very signature text the main thread writes', async () => {
    const listed = await tree();
    const thread = helper(1);
    const sweep = new SignatureSweep(root, MAX, 100, thread);
    sweep.offer(listed);
    // The helper takes every chunk before the main thread looks.
    while (sweep.helperChunks < listed.length) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await sweep.finish(listed)).toEqual(listed.map((rel) => statSignature(join(root, rel), MAX)));
  });

  it('leaves the helper unstarted when no core is to spare', async () => {
    const listed = await tree();
    const thread = new SweepThread({ chunkFiles: 1, fromFiles: 1, spare: () => false });
    threads.push(thread);
    const sweep = new SignatureSweep(root, MAX, 100, thread);
    sweep.offer(listed);
    expect(await sweep.finish(listed)).toEqual(listed.map((rel) => statSignature(join(root, rel), MAX)));
    expect(sweep.helperChunks).toBe(0);
  });

  it('sweeps on the main thread what a helper that stopped left', async () => {
    const listed = await tree();
    const thread = helper(2);
    const sweep = new SignatureSweep(root, MAX, 100, thread);
    sweep.offer(listed);
    thread.dispose();
    expect(await sweep.finish(listed)).toEqual(listed.map((rel) => statSignature(join(root, rel), MAX)));
  });
});
