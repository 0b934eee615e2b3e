// The whole scope guard against a real file system: every test builds the
// attack out of real folders and links in a fresh temp folder.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { domainErrorOf } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INSIDE_LEDGER_FOLDER, INSIDE_VMARK_HOME } from './protected-folders.js';
import { refuseProtected, resolveInScope } from './resolve-in-scope.js';
import type { GuardedFolders, ScopeRoot } from './resolve-in-scope.js';

let tmp: string;
let root: string;
let outside: string;
let roots: ScopeRoot[];
/** `$VMARK_HOME` lies beside the workspace here; the protected-folder tests move it inside. */
let guard: GuardedFolders;

/** The guarded folders for a home, as the vault computes them. */
async function guardOf(home: string): Promise<GuardedFolders> {
  return { home, homeReal: await fs.realpath(home) };
}

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
  await fs.mkdir(path.join(tmp, 'home'));
  guard = await guardOf(path.join(tmp, 'home'));
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('paths inside the scope', () => {
  it('resolves an existing file to its canonical path', async () => {
    await expect(resolveInScope(path.join(root, 'note.md'), roots, guard)).resolves.toBe(
      path.join(root, 'note.md'),
    );
  });

  it('resolves a new file in an existing folder through its parent', async () => {
    await expect(resolveInScope(path.join(root, 'new.md'), roots, guard)).resolves.toBe(
      path.join(root, 'new.md'),
    );
  });

  it('resolves relative input against the base folder', async () => {
    await expect(resolveInScope('note.md', roots, guard, root)).resolves.toBe(path.join(root, 'note.md'));
    await expect(resolveInScope('./sub/../note.md', roots, guard, root)).resolves.toBe(
      path.join(root, 'note.md'),
    );
  });

  it('accepts the root itself and drops a trailing separator', async () => {
    await expect(resolveInScope(`${root}/`, roots, guard)).resolves.toBe(root);
    await expect(resolveInScope(`${root}//`, roots, guard)).resolves.toBe(root);
  });

  it('allows unicode, spaces and percent signs in names', async () => {
    const folder = path.join(root, '筆記 café');
    await fs.mkdir(folder);
    for (const name of ['a b.md', 'résumé ☕.md', '50%.md', '%2e%2e']) {
      await expect(resolveInScope(path.join(folder, name), roots, guard)).resolves.toBe(
        path.join(folder, name),
      );
    }
  });

  it('preserves trailing spaces: "a.md " and "a.md" are different files', async () => {
    await fs.writeFile(path.join(root, 'a.md'), 'plain');
    await fs.writeFile(path.join(root, 'a.md '), 'spaced');
    const spaced = await resolveInScope('a.md ', roots, guard, root);
    const plain = await resolveInScope('a.md', roots, guard, root);
    expect(spaced).toBe(path.join(root, 'a.md '));
    expect(plain).toBe(path.join(root, 'a.md'));
    expect(await fs.readFile(spaced, 'utf8')).toBe('spaced');
    // A new file with a trailing space keeps it too.
    await expect(resolveInScope('b.md  ', roots, guard, root)).resolves.toBe(path.join(root, 'b.md  '));
  });

  it('follows a link that stays inside the root to its canonical target', async () => {
    await fs.symlink(path.join(root, 'note.md'), path.join(root, 'alias.md'));
    await expect(resolveInScope(path.join(root, 'alias.md'), roots, guard)).resolves.toBe(
      path.join(root, 'note.md'),
    );
  });

  it('accepts a workspace root that is itself a symlink, written either way', async () => {
    const alias = path.join(tmp, 'alias-root');
    await fs.symlink(root, alias);
    const aliasRoots = await scopeOf(alias);
    expect(aliasRoots[0]?.real).toBe(root);
    await expect(resolveInScope(path.join(alias, 'note.md'), aliasRoots, guard)).resolves.toBe(
      path.join(root, 'note.md'),
    );
    await expect(resolveInScope(path.join(root, 'note.md'), aliasRoots, guard)).resolves.toBe(
      path.join(root, 'note.md'),
    );
    await expect(resolveInScope(path.join(alias, 'new.md'), aliasRoots, guard)).resolves.toBe(
      path.join(root, 'new.md'),
    );
  });

  it('treats nested and overlapping roots as their union', async () => {
    const sub = path.join(root, 'sub');
    await fs.mkdir(sub);
    const nested = await scopeOf(sub, root);
    await expect(resolveInScope(path.join(root, 'note.md'), nested, guard)).resolves.toBe(
      path.join(root, 'note.md'),
    );
    await expectRefused(resolveInScope(path.join(outside, 'secret.md'), nested, guard), OUTSIDE);
  });

  it('with root "/" every existing folder is in scope (a deliberate, wide configuration)', async () => {
    const everything = await scopeOf('/');
    await expect(resolveInScope(path.join(outside, 'secret.md'), everything, guard)).resolves.toBe(
      path.join(outside, 'secret.md'),
    );
  });
});

describe('lexical escapes', () => {
  it('refuses the prefix trick: root-evil is not inside root', async () => {
    const evil = path.join(tmp, 'root-evil');
    await fs.mkdir(evil);
    await fs.writeFile(path.join(evil, 'secret.md'), 'SECRET');
    await expectRefused(resolveInScope(path.join(evil, 'secret.md'), roots, guard), OUTSIDE);
    await expectRefused(resolveInScope('../root-evil/secret.md', roots, guard, root), OUTSIDE);
    await expectRefused(resolveInScope(evil, roots, guard), OUTSIDE);
  });

  it.each([
    '../outside/secret.md',
    '../../../../../../etc/passwd',
    'sub/../../outside/secret.md',
    './../outside/./secret.md',
    '..',
  ])('refuses ../ traversal: %s', async (input) => {
    await expectRefused(resolveInScope(input, roots, guard, root), OUTSIDE);
  });

  it('refuses an absolute path outside every root', async () => {
    await expectRefused(resolveInScope('/etc/passwd', roots, guard), OUTSIDE);
    await expectRefused(resolveInScope(path.join(outside, 'secret.md'), roots, guard), OUTSIDE);
  });

  it('checks lexically first: a link outside the scope is refused even when it points inside', async () => {
    const door = path.join(tmp, 'door');
    await fs.symlink(root, door);
    await expectRefused(resolveInScope(path.join(door, 'note.md'), roots, guard), OUTSIDE);
  });

  it('refuses NUL bytes, empty and whitespace-only input, naming the path', async () => {
    await expectRefused(
      resolveInScope(`${root}/note.md\0.txt`, roots, guard),
      '"' + `${root}/note.md\\u0000.txt` + '"',
    );
    await expectRefused(resolveInScope('note.md\0', roots, guard, root), 'contains a NUL byte');
    await expectRefused(resolveInScope('', roots, guard, root), '"" must not be empty');
    await expectRefused(resolveInScope('  \t', roots, guard, root), 'must not be empty');
  });

  it('refuses every path when nothing is open: there is no file scope', async () => {
    await expectRefused(resolveInScope(path.join(root, 'note.md'), [], guard), /nothing|no workspace/);
    await expectRefused(resolveInScope(path.join(root, 'note.md'), [], guard), 'no file scope');
  });
});

describe('symlink escapes', () => {
  it('refuses a symlink inside the root that points to a file outside', async () => {
    await fs.symlink(path.join(outside, 'secret.md'), path.join(root, 'innocent.md'));
    await expectRefused(
      resolveInScope(path.join(root, 'innocent.md'), roots, guard),
      /outside .*symbolic link/,
    );
  });

  it('refuses a symlinked folder inside the root that points outside', async () => {
    await fs.symlink(outside, path.join(root, 'linked'));
    await expectRefused(resolveInScope(path.join(root, 'linked', 'secret.md'), roots, guard), OUTSIDE);
    await expectRefused(resolveInScope(path.join(root, 'linked'), roots, guard), OUTSIDE);
  });

  it('refuses a chain of links that ends outside', async () => {
    const hop1 = path.join(tmp, 'hop1');
    const hop2 = path.join(root, 'hop2');
    await fs.symlink(path.join(outside, 'secret.md'), hop1);
    await fs.symlink(hop1, hop2);
    await fs.symlink(hop2, path.join(root, 'seemingly-safe.md'));
    await expectRefused(resolveInScope(path.join(root, 'seemingly-safe.md'), roots, guard), OUTSIDE);
  });

  it('allows a chain of links that leaves the root but ends back inside it', async () => {
    const hop = path.join(tmp, 'hop');
    await fs.symlink(path.join(root, 'note.md'), hop);
    await fs.symlink(hop, path.join(root, 'round-trip.md'));
    await expect(resolveInScope(path.join(root, 'round-trip.md'), roots, guard)).resolves.toBe(
      path.join(root, 'note.md'),
    );
  });

  it('refuses a new file in a symlinked folder that points outside, and creates nothing', async () => {
    await fs.symlink(outside, path.join(root, 'drop'));
    await expectRefused(resolveInScope(path.join(root, 'drop', 'planted.md'), roots, guard), OUTSIDE);
    await expect(fs.access(path.join(outside, 'planted.md'))).rejects.toThrow();
  });

  it('refuses an overwrite through a symlink that points to a file outside', async () => {
    await fs.rm(path.join(root, 'note.md'));
    await fs.symlink(path.join(outside, 'secret.md'), path.join(root, 'note.md'));
    await expectRefused(resolveInScope(path.join(root, 'note.md'), roots, guard), OUTSIDE);
    expect(await fs.readFile(path.join(outside, 'secret.md'), 'utf8')).toBe('SECRET');
  });

  it('refuses a dangling symlink that would create its target outside', async () => {
    await fs.symlink(path.join(outside, 'not-yet.md'), path.join(root, 'ghost.md'));
    await expectRefused(
      resolveInScope(path.join(root, 'ghost.md'), roots, guard),
      'symbolic link to a missing target',
    );
  });

  it('refuses a symlink loop', async () => {
    await fs.symlink(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
    await fs.symlink(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
    await expectRefused(resolveInScope(path.join(root, 'loop-a'), roots, guard), 'loop');
  });
});

describe('paths that cannot exist', () => {
  it('refuses a new file whose parent folder is missing, saying it does not exist', async () => {
    const input = path.join(root, 'missing', 'new.md');
    await expectRefused(
      resolveInScope(input, roots, guard),
      `folder ${JSON.stringify(path.join(root, 'missing'))} does not exist`,
    );
    await expectRefused(resolveInScope(input, roots, guard), JSON.stringify(input));
  });

  it('refuses a path that treats a file as a folder', async () => {
    await expectRefused(
      resolveInScope(path.join(root, 'note.md', 'child.md'), roots, guard),
      'is a file, not a folder',
    );
  });
});

describe('protected folders: .vmark and $VMARK_HOME stay out of reach inside the scope', () => {
  let ledger: string;

  beforeEach(async () => {
    ledger = path.join(root, '.vmark', 'ledger');
    await fs.mkdir(ledger, { recursive: true });
    await fs.writeFile(path.join(ledger, 'w.jsonl'), '{}\n');
    await fs.writeFile(path.join(guard.home, 'settings.json'), '{}\n');
  });

  it('refuses a ledger segment, a new file beside it and the folder itself', async () => {
    await expectRefused(resolveInScope(path.join(ledger, 'w.jsonl'), roots, guard), INSIDE_LEDGER_FOLDER);
    await expectRefused(
      resolveInScope('.vmark/ledger/forged.jsonl', roots, guard, root),
      INSIDE_LEDGER_FOLDER,
    );
    await expectRefused(resolveInScope('.vmark', roots, guard, root), INSIDE_LEDGER_FOLDER);
  });

  it('refuses by name before asking the disk: a missing .VMARK folder is refused, not reported missing', async () => {
    const error = await domainErrorOf(resolveInScope('.VMARK/ledger/forged.jsonl', roots, guard, root));
    expect(error.message).toContain(INSIDE_LEDGER_FOLDER);
    expect(error.message).not.toContain('does not exist');
  });

  it('refuses a symlink inside the root that points into .vmark, file or folder', async () => {
    await fs.symlink(path.join(ledger, 'w.jsonl'), path.join(root, 'notes.md'));
    await fs.symlink(ledger, path.join(root, 'journal'));
    await expectRefused(resolveInScope(path.join(root, 'notes.md'), roots, guard), INSIDE_LEDGER_FOLDER);
    await expectRefused(
      resolveInScope(path.join(root, 'journal', 'w.jsonl'), roots, guard),
      INSIDE_LEDGER_FOLDER,
    );
    await expectRefused(
      resolveInScope(path.join(root, 'journal', 'new.jsonl'), roots, guard),
      INSIDE_LEDGER_FOLDER,
    );
  });

  it('refuses $VMARK_HOME when it lies inside the workspace, and a link into it', async () => {
    await fs.mkdir(path.join(root, 'vmark-home'));
    const inside = await guardOf(path.join(root, 'vmark-home'));
    await fs.writeFile(path.join(inside.home, 'settings.json'), '{}');
    await expectRefused(resolveInScope('vmark-home/settings.json', roots, inside, root), INSIDE_VMARK_HOME);
    await expectRefused(resolveInScope('vmark-home/plugins', roots, inside, root), INSIDE_VMARK_HOME);
    await fs.symlink(path.join(inside.home, 'settings.json'), path.join(root, 'prefs.json'));
    await expectRefused(resolveInScope(path.join(root, 'prefs.json'), roots, inside), INSIDE_VMARK_HOME);
  });

  it('refuses a home given through a link, written the linked way or the real way', async () => {
    const linked = path.join(root, 'home-link');
    await fs.symlink(guard.home, linked);
    const viaLink = await guardOf(linked);
    // The scope contains the real home too: the workspace is the parent of both.
    const wide = await scopeOf(tmp);
    await expectRefused(
      resolveInScope(path.join(guard.home, 'settings.json'), wide, viaLink),
      INSIDE_VMARK_HOME,
    );
    await expectRefused(resolveInScope(path.join(linked, 'settings.json'), wide, viaLink), INSIDE_VMARK_HOME);
  });

  it('refuses by identity a folder that is the home or a ledger under a name no spelling shows', async () => {
    // A bind mount or an 8.3 short name: a second name for the same folder. Simulated by a link
    // whose real path is not looked up, so only the device and inode give it away.
    const alias = path.join(root, 'innocent');
    await fs.symlink(guard.home, alias);
    await expectRefused(
      refuseProtected('innocent/settings.json', path.join(alias, 'settings.json'), roots, guard),
      INSIDE_VMARK_HOME,
    );
    const ledgerAlias = path.join(root, 'archive');
    await fs.symlink(path.join(root, '.vmark'), ledgerAlias);
    await expectRefused(
      refuseProtected('archive/ledger/w.jsonl', path.join(ledgerAlias, 'ledger', 'w.jsonl'), roots, guard),
      INSIDE_LEDGER_FOLDER,
    );
  });

  it('lets everything else in the workspace through, the home beside it notwithstanding', async () => {
    await expect(resolveInScope(path.join(root, 'note.md'), roots, guard)).resolves.toBe(
      path.join(root, 'note.md'),
    );
    await expect(resolveInScope('vmark/notes.md', roots, guard, root)).rejects.toThrow(/does not exist/);
    await fs.mkdir(path.join(root, 'vmark'));
    await expect(resolveInScope('vmark/notes.md', roots, guard, root)).resolves.toBe(
      path.join(root, 'vmark', 'notes.md'),
    );
  });
});
