import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isWalkedMarkdownPath, walkWorkspace } from './walk-workspace.js';

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

describe('isWalkedMarkdownPath', () => {
  it('matches exactly the paths the walk reads', () => {
    expect(isWalkedMarkdownPath('a/b.md')).toBe(true);
    expect(isWalkedMarkdownPath('img.png')).toBe(false);
    expect(isWalkedMarkdownPath('node_modules/x.md')).toBe(false);
    expect(isWalkedMarkdownPath('a/.git/x.md')).toBe(false);
  });
});
