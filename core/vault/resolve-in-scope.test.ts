// The whole scope guard against a real file system: every test builds the
// attack out of real folders and links in a fresh temp folder.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { domainErrorOf } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveInScope } from './resolve-in-scope.js';
import type { ScopeRoot } from './resolve-in-scope.js';

let tmp: string;
let root: string;
let outside: string;
let roots: ScopeRoot[];

async function scopeOf(...folders: string[]): Promise<ScopeRoot[]> {
  return Promise.all(
    folders.map(async (folder) => ({ lexical: path.resolve(folder), real: await fs.realpath(folder) })),
  );
}

async function expectRefused(pending: Promise<unknown>, reason: string | RegExp): Promise<void> {
  const error = await domainErrorOf(pending);
  expect(error.code).toBe('INVALID_PATH');
  if (typeof reason === 'string') expect(error.message).toContain(reason);
  else expect(error.message).toMatch(reason);
}

const OUTSIDE = 'is outside the open workspace and document folders';

beforeEach(async () => {
  // realpath: os.tmpdir() is itself a link on some systems (macOS /tmp).
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-scope-')));
  root = path.join(tmp, 'root');
  outside = path.join(tmp, 'outside');
  await fs.mkdir(root);
  await fs.mkdir(outside);
  await fs.writeFile(path.join(root, 'note.md'), 'inside');
  await fs.writeFile(path.join(outside, 'secret.md'), 'SECRET');
  roots = await scopeOf(root);
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('paths inside the scope', () => {
  it('resolves an existing file to its canonical path', async () => {
    await expect(resolveInScope(path.join(root, 'note.md'), roots)).resolves.toBe(path.join(root, 'note.md'));
  });

  it('resolves a new file in an existing folder through its parent', async () => {
    await expect(resolveInScope(path.join(root, 'new.md'), roots)).resolves.toBe(path.join(root, 'new.md'));
  });

  it('resolves relative input against the base folder', async () => {
    await expect(resolveInScope('note.md', roots, root)).resolves.toBe(path.join(root, 'note.md'));
    await expect(resolveInScope('./sub/../note.md', roots, root)).resolves.toBe(path.join(root, 'note.md'));
  });

  it('accepts the root itself and drops a trailing separator', async () => {
    await expect(resolveInScope(`${root}/`, roots)).resolves.toBe(root);
    await expect(resolveInScope(`${root}//`, roots)).resolves.toBe(root);
  });

  it('allows unicode, spaces and percent signs in names', async () => {
    const folder = path.join(root, '筆記 café');
    await fs.mkdir(folder);
    for (const name of ['a b.md', 'résumé ☕.md', '50%.md', '%2e%2e']) {
      await expect(resolveInScope(path.join(folder, name), roots)).resolves.toBe(path.join(folder, name));
    }
  });

  it('preserves trailing spaces: "a.md " and "a.md" are different files', async () => {
    await fs.writeFile(path.join(root, 'a.md'), 'plain');
    await fs.writeFile(path.join(root, 'a.md '), 'spaced');
    const spaced = await resolveInScope('a.md ', roots, root);
    const plain = await resolveInScope('a.md', roots, root);
    expect(spaced).toBe(path.join(root, 'a.md '));
    expect(plain).toBe(path.join(root, 'a.md'));
    expect(await fs.readFile(spaced, 'utf8')).toBe('spaced');
    // A new file with a trailing space keeps it too.
    await expect(resolveInScope('b.md  ', roots, root)).resolves.toBe(path.join(root, 'b.md  '));
  });

  it('follows a link that stays inside the root to its canonical target', async () => {
    await fs.symlink(path.join(root, 'note.md'), path.join(root, 'alias.md'));
    await expect(resolveInScope(path.join(root, 'alias.md'), roots)).resolves.toBe(
      path.join(root, 'note.md'),
    );
  });

  it('accepts a workspace root that is itself a symlink, written either way', async () => {
    const alias = path.join(tmp, 'alias-root');
    await fs.symlink(root, alias);
    const aliasRoots = await scopeOf(alias);
    expect(aliasRoots[0]?.real).toBe(root);
    await expect(resolveInScope(path.join(alias, 'note.md'), aliasRoots)).resolves.toBe(
      path.join(root, 'note.md'),
    );
    await expect(resolveInScope(path.join(root, 'note.md'), aliasRoots)).resolves.toBe(
      path.join(root, 'note.md'),
    );
    await expect(resolveInScope(path.join(alias, 'new.md'), aliasRoots)).resolves.toBe(
      path.join(root, 'new.md'),
    );
  });

  it('treats nested and overlapping roots as their union', async () => {
    const sub = path.join(root, 'sub');
    await fs.mkdir(sub);
    const nested = await scopeOf(sub, root);
    await expect(resolveInScope(path.join(root, 'note.md'), nested)).resolves.toBe(
      path.join(root, 'note.md'),
    );
    await expectRefused(resolveInScope(path.join(outside, 'secret.md'), nested), OUTSIDE);
  });

  it('with root "/" every existing folder is in scope (a deliberate, wide configuration)', async () => {
    const everything = await scopeOf('/');
    await expect(resolveInScope(path.join(outside, 'secret.md'), everything)).resolves.toBe(
      path.join(outside, 'secret.md'),
    );
  });
});

describe('lexical escapes', () => {
  it('refuses the prefix trick: root-evil is not inside root', async () => {
    const evil = path.join(tmp, 'root-evil');
    await fs.mkdir(evil);
    await fs.writeFile(path.join(evil, 'secret.md'), 'SECRET');
    await expectRefused(resolveInScope(path.join(evil, 'secret.md'), roots), OUTSIDE);
    await expectRefused(resolveInScope('../root-evil/secret.md', roots, root), OUTSIDE);
    await expectRefused(resolveInScope(evil, roots), OUTSIDE);
  });

  it.each([
    '../outside/secret.md',
    '../../../../../../etc/passwd',
    'sub/../../outside/secret.md',
    './../outside/./secret.md',
    '..',
  ])('refuses ../ traversal: %s', async (input) => {
    await expectRefused(resolveInScope(input, roots, root), OUTSIDE);
  });

  it('refuses an absolute path outside every root', async () => {
    await expectRefused(resolveInScope('/etc/passwd', roots), OUTSIDE);
    await expectRefused(resolveInScope(path.join(outside, 'secret.md'), roots), OUTSIDE);
  });

  it('checks lexically first: a link outside the scope is refused even when it points inside', async () => {
    const door = path.join(tmp, 'door');
    await fs.symlink(root, door);
    await expectRefused(resolveInScope(path.join(door, 'note.md'), roots), OUTSIDE);
  });

  it('refuses NUL bytes, empty and whitespace-only input, naming the path', async () => {
    await expectRefused(
      resolveInScope(`${root}/note.md\0.txt`, roots),
      '"' + `${root}/note.md\\u0000.txt` + '"',
    );
    await expectRefused(resolveInScope('note.md\0', roots, root), 'contains a NUL byte');
    await expectRefused(resolveInScope('', roots, root), '"" must not be empty');
    await expectRefused(resolveInScope('  \t', roots, root), 'must not be empty');
  });

  it('refuses every path when nothing is open: there is no file scope', async () => {
    await expectRefused(resolveInScope(path.join(root, 'note.md'), []), /nothing|no workspace/);
    await expectRefused(resolveInScope(path.join(root, 'note.md'), []), 'no file scope');
  });
});

describe('symlink escapes', () => {
  it('refuses a symlink inside the root that points to a file outside', async () => {
    await fs.symlink(path.join(outside, 'secret.md'), path.join(root, 'innocent.md'));
    await expectRefused(resolveInScope(path.join(root, 'innocent.md'), roots), /outside .*symbolic link/);
  });

  it('refuses a symlinked folder inside the root that points outside', async () => {
    await fs.symlink(outside, path.join(root, 'linked'));
    await expectRefused(resolveInScope(path.join(root, 'linked', 'secret.md'), roots), OUTSIDE);
    await expectRefused(resolveInScope(path.join(root, 'linked'), roots), OUTSIDE);
  });

  it('refuses a chain of links that ends outside', async () => {
    const hop1 = path.join(tmp, 'hop1');
    const hop2 = path.join(root, 'hop2');
    await fs.symlink(path.join(outside, 'secret.md'), hop1);
    await fs.symlink(hop1, hop2);
    await fs.symlink(hop2, path.join(root, 'seemingly-safe.md'));
    await expectRefused(resolveInScope(path.join(root, 'seemingly-safe.md'), roots), OUTSIDE);
  });

  it('allows a chain of links that leaves the root but ends back inside it', async () => {
    const hop = path.join(tmp, 'hop');
    await fs.symlink(path.join(root, 'note.md'), hop);
    await fs.symlink(hop, path.join(root, 'round-trip.md'));
    await expect(resolveInScope(path.join(root, 'round-trip.md'), roots)).resolves.toBe(
      path.join(root, 'note.md'),
    );
  });

  it('refuses a new file in a symlinked folder that points outside, and creates nothing', async () => {
    await fs.symlink(outside, path.join(root, 'drop'));
    await expectRefused(resolveInScope(path.join(root, 'drop', 'planted.md'), roots), OUTSIDE);
    await expect(fs.access(path.join(outside, 'planted.md'))).rejects.toThrow();
  });

  it('refuses an overwrite through a symlink that points to a file outside', async () => {
    await fs.rm(path.join(root, 'note.md'));
    await fs.symlink(path.join(outside, 'secret.md'), path.join(root, 'note.md'));
    await expectRefused(resolveInScope(path.join(root, 'note.md'), roots), OUTSIDE);
    expect(await fs.readFile(path.join(outside, 'secret.md'), 'utf8')).toBe('SECRET');
  });

  it('refuses a dangling symlink that would create its target outside', async () => {
    await fs.symlink(path.join(outside, 'not-yet.md'), path.join(root, 'ghost.md'));
    await expectRefused(
      resolveInScope(path.join(root, 'ghost.md'), roots),
      'symbolic link to a missing target',
    );
  });

  it('refuses a symlink loop', async () => {
    await fs.symlink(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
    await fs.symlink(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
    await expectRefused(resolveInScope(path.join(root, 'loop-a'), roots), 'loop');
  });
});

describe('paths that cannot exist', () => {
  it('refuses a new file whose parent folder is missing, saying it does not exist', async () => {
    const input = path.join(root, 'missing', 'new.md');
    await expectRefused(
      resolveInScope(input, roots),
      `folder ${JSON.stringify(path.join(root, 'missing'))} does not exist`,
    );
    await expectRefused(resolveInScope(input, roots), JSON.stringify(input));
  });

  it('refuses a path that treats a file as a folder', async () => {
    await expectRefused(
      resolveInScope(path.join(root, 'note.md', 'child.md'), roots),
      'is a file, not a folder',
    );
  });
});
