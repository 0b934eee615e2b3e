import { mkdir, mkdtemp, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digestFile } from './file-digest.js';
import { planReconciliation } from './reconcile.js';
import { isWalkedMarkdownPath, WalkCache, walkWorkspace, type WalkResult } from './walk-workspace.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'vmark-walk-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(rel: string, content: string | Uint8Array): Promise<void> {
  const abs = join(root, ...rel.split('/'));
  await mkdir(join(abs, '..'), { recursive: true });
  await writeFile(abs, content);
}

describe('walkWorkspace', () => {
  it('lists Markdown files only, sorted, with /-separated relative paths, outside skipped folders', async () => {
    await put('b.md', 'b');
    await put('a/z.md', 'z');
    await put('a/notes.txt', 'no');
    await put('.md', 'a bare suffix is no Markdown name');
    await put('.vmark/x.md', 'no');
    await put('.git/y.md', 'no');
    await put('pkg/node_modules/dep/readme.md', 'no');
    const walked = await walkWorkspace(root);
    expect(walked.files.map((f) => f.path)).toEqual(['a/z.md', 'b.md']);
    expect(Buffer.from(walked.files[0]?.bytes ?? []).toString()).toBe('z');
    expect(walked.diagnostics).toEqual([]);
    expect(walked.complete).toBe(true);
  });

  it('never follows a symlink: linked files and folders are reported and skipped', async () => {
    await put('real/doc.md', 'doc');
    await symlink(join(root, 'real', 'doc.md'), join(root, 'link.md'));
    await symlink(join(root, 'real'), join(root, 'linked-dir'));
    await symlink(join(root, 'nowhere'), join(root, 'dangling.txt'));
    const walked = await walkWorkspace(root);
    expect(walked.files.map((f) => f.path)).toEqual(['real/doc.md']);
    expect(walked.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['symlink', 'link.md'],
      ['symlink', 'linked-dir'],
    ]);
    expect(walked.skipped).toEqual(['link.md']);
    expect(walked.skippedDirs).toEqual(['linked-dir']);
  });

  it('reports invalid UTF-8 instead of returning the file', async () => {
    await put('bad.md', new Uint8Array([0x2d, 0xff, 0xfe, 0x0a]));
    await put('good.md', '\uFEFFok');
    const walked = await walkWorkspace(root);
    expect(walked.files.map((f) => f.path)).toEqual(['good.md']);
    expect(walked.diagnostics).toEqual([
      { code: 'invalid-utf8', path: 'bad.md', message: 'not valid UTF-8' },
    ]);
    expect(walked.skipped).toEqual(['bad.md']);
  });

  it('reports files over the size bound and stops listing past the file bound', async () => {
    await put('big.md', 'x'.repeat(100));
    await put('a.md', 'a');
    await put('c.md', 'c');
    const sized = await walkWorkspace(root, { maxFileBytes: 10 });
    expect(sized.diagnostics.map((d) => [d.code, d.path])).toEqual([['too-large', 'big.md']]);
    const capped = await walkWorkspace(root, { maxFiles: 2 });
    expect(capped.files).toHaveLength(2);
    expect(capped.complete).toBe(false);
    expect(capped.diagnostics.map((d) => d.code)).toEqual(['too-many-files']);
  });

  it('reports each file read or skipped as it goes, out of the files listed', async () => {
    await put('a.md', 'a');
    await put('b/c.md', 'c');
    await put('bad.md', new Uint8Array([0xff]));
    const reports: [number, number][] = [];
    await walkWorkspace(root, { onProgress: (done, total) => reports.push([done, total]) });
    expect(reports).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    // Files found unchanged in a cache count as they are confirmed.
    const cache = new WalkCache({ racyWindowNs: -60_000_000_000n });
    await walkWorkspace(root, { cache });
    reports.length = 0;
    await walkWorkspace(root, { cache, onProgress: (done, total) => reports.push([done, total]) });
    expect(reports.at(-1)).toEqual([3, 3]);
    expect(reports).toHaveLength(3);
  });

  it('walks deep trees iteratively', async () => {
    const deep = Array.from({ length: 400 }, () => 'd').join('/');
    await put(`${deep}/bottom.md`, 'deep');
    const walked = await walkWorkspace(root);
    expect(walked.files.map((f) => f.path)).toEqual([`${deep}/bottom.md`]);
  });

  it('handles 20,000 files', async () => {
    for (let d = 0; d < 100; d++) {
      const dir = join(root, `dir${d}`);
      await mkdir(dir);
      await Promise.all(
        Array.from({ length: 200 }, (_, f) => writeFile(join(dir, `f${f}.md`), `file ${d}/${f}`)),
      );
    }
    const walked = await walkWorkspace(root);
    expect(walked.files).toHaveLength(20_000);
    expect(walked.diagnostics).toEqual([]);
  });
});

const ID = (n: number): string => `0190b000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const doc = (n: number, body: string): string => `---\nvmark:\n  id: ${ID(n)}\n---\n${body}`;
/** Which files came with bytes (read) and which with a remembered digest only. */
const howRead = (walked: WalkResult): Record<string, 'read' | 'cached'> =>
  Object.fromEntries(walked.files.map((f) => [f.path, f.bytes === undefined ? 'cached' : 'read']));

describe('walkWorkspace with a WalkCache', () => {
  // These files were all written a moment ago: a negative window trusts them anyway.
  const fresh = (): WalkCache => new WalkCache({ racyWindowNs: -60_000_000_000n });

  it('reads every file once, then only files whose stat signature changed', async () => {
    await put('a.md', doc(1, 'a'));
    await put('sub/b.md', doc(2, 'b'));
    await put('plain.md', 'no identity');
    const cache = fresh();
    const first = await walkWorkspace(root, { cache });
    expect(howRead(first)).toEqual({ 'a.md': 'read', 'plain.md': 'read', 'sub/b.md': 'read' });
    expect(first.files.map((f) => f.digest)).toEqual([
      digestFile(Buffer.from(doc(1, 'a'))),
      null,
      digestFile(Buffer.from(doc(2, 'b'))),
    ]);
    expect(cache.size).toBe(3);

    const second = await walkWorkspace(root, { cache });
    expect(howRead(second)).toEqual({ 'a.md': 'cached', 'plain.md': 'cached', 'sub/b.md': 'cached' });
    expect(second.files.map((f) => f.digest)).toEqual(first.files.map((f) => f.digest));

    // Same size, other content and a different mtime: read again.
    await put('a.md', doc(1, 'A'));
    await utimes(join(root, 'a.md'), new Date(2_000_000), new Date(2_000_000));
    const third = await walkWorkspace(root, { cache });
    expect(howRead(third)).toEqual({ 'a.md': 'read', 'plain.md': 'cached', 'sub/b.md': 'cached' });
    expect(third.files[0]?.digest).toEqual(digestFile(Buffer.from(doc(1, 'A'))));
  });

  it('consults the cache only once `cacheReady` settles, so what is restored meanwhile counts', async () => {
    await put('a.md', doc(1, 'a'));
    await put('sub/b.md', doc(2, 'b'));
    const earlier = fresh();
    const first = await walkWorkspace(root, { cache: earlier });
    const paths = first.files.map((f) => f.path);
    const saved = paths.map((p) => earlier.saved(root, p));
    const cache = fresh();
    // Restored a while after the walk started (a new process reading its index meanwhile).
    const cacheReady = new Promise<void>((resolve) =>
      setTimeout(() => {
        cache.restore(
          root,
          paths,
          saved.map((s) => s?.signature ?? null),
          saved.map((s) => s?.digest ?? null),
        );
        resolve();
      }, 100),
    );
    const walked = await walkWorkspace(root, { cache, cacheReady });
    expect(howRead(walked)).toEqual({ 'a.md': 'cached', 'sub/b.md': 'cached' });
  });

  it('reads a file again when it was replaced by another with the same size and times', async () => {
    await put('a.md', doc(1, 'a'));
    await put('other.md', doc(1, 'b'));
    const cache = fresh();
    await walkWorkspace(root, { cache });
    await utimes(join(root, 'other.md'), new Date(3_000_000), new Date(3_000_000));
    await utimes(join(root, 'a.md'), new Date(3_000_000), new Date(3_000_000));
    await walkWorkspace(root, { cache });
    // Another inode under the old name.
    await rename(join(root, 'other.md'), join(root, 'a.md'));
    const walked = await walkWorkspace(root, { cache });
    expect(howRead(walked)).toEqual({ 'a.md': 'read' });
    expect(walked.files[0]?.digest).toEqual(digestFile(Buffer.from(doc(1, 'b'))));
  });

  it('does not trust a file changed within the racy window before the walk', async () => {
    await put('a.md', doc(1, 'a'));
    const cache = new WalkCache();
    await walkWorkspace(root, { cache });
    expect(cache.size).toBe(0);
    expect(howRead(await walkWorkspace(root, { cache }))).toEqual({ 'a.md': 'read' });
  });

  it('forgets deleted files, and reports a file swapped for a link', async () => {
    await put('a.md', doc(1, 'a'));
    await put('b.md', doc(2, 'b'));
    const cache = fresh();
    await walkWorkspace(root, { cache });
    await rm(join(root, 'b.md'));
    await rm(join(root, 'a.md'));
    await put('target.txt', doc(1, 'a'));
    await symlink(join(root, 'target.txt'), join(root, 'a.md'));
    const walked = await walkWorkspace(root, { cache });
    expect(walked.files).toEqual([]);
    expect(walked.diagnostics.map((d) => [d.code, d.path])).toEqual([['symlink', 'a.md']]);
    expect(cache.size).toBe(0);
  });

  it('starts over for another root and re-checks the size bound', async () => {
    await put('a.md', doc(1, 'a'));
    const cache = fresh();
    await walkWorkspace(root, { cache });
    const sized = await walkWorkspace(root, { cache, maxFileBytes: 5 });
    expect(sized.diagnostics.map((d) => d.code)).toEqual(['too-large']);
    const other = await mkdtemp(join(tmpdir(), 'vmark-walk-other-'));
    try {
      await walkWorkspace(root, { cache });
      expect(cache.size).toBe(1);
      expect((await walkWorkspace(other, { cache })).files).toEqual([]);
      expect(cache.size).toBe(0);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('plans the same reconciliation from remembered digests as from bytes', async () => {
    await put('a.md', doc(1, 'a'));
    await put('dup1.md', doc(2, 'same id'));
    await put('dup2.md', doc(2, 'same id, other copy'));
    await put('notes.md', 'no id');
    const cache = fresh();
    await walkWorkspace(root, { cache });
    const cached = await walkWorkspace(root, { cache });
    const plain = await walkWorkspace(root);
    expect(Object.values(howRead(cached))).toEqual(['cached', 'cached', 'cached', 'cached']);
    const factory = () => {
      let n = 0;
      return { writer: ID(99), newId: () => ID(1000 + ++n), now: () => new Date(0) };
    };
    const fromCache = planReconciliation(cached.files, new Map(), factory());
    expect(fromCache).toEqual(planReconciliation(plain.files, new Map(), factory()));
    // One object's registration and root, then the duplicate's diagnostic (objects in id order).
    expect(fromCache.entries.map((e) => e.kind)).toEqual([
      'object-registered',
      'transformation',
      'diagnostic',
    ]);
    expect(fromCache.held).toEqual([ID(2)]);
  });
});

describe('isWalkedMarkdownPath', () => {
  it('matches exactly the paths the walk reads', () => {
    expect(isWalkedMarkdownPath('a/b.md')).toBe(true);
    expect(isWalkedMarkdownPath('img.png')).toBe(false);
    expect(isWalkedMarkdownPath('node_modules/x.md')).toBe(false);
    expect(isWalkedMarkdownPath('a/.git/x.md')).toBe(false);
  });
});
