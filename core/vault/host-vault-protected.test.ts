// The vault's entry points refuse protected folders: a workspace opened at or inside one, a file a
// person named there, and a file in one reached through the scope of an open document's folder.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { domainErrorOf } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostVault } from './host-vault.js';
import { INSIDE_LEDGER_FOLDER, INSIDE_VMARK_HOME } from './protected-folders.js';

let tmp: string;
let workspace: string;
let home: string;
let vault: HostVault;

async function expectRefused(pending: Promise<unknown>, reason: string): Promise<void> {
  const error = await domainErrorOf(pending);
  expect(error.code).toBe('INVALID_PATH');
  expect(error.message).toContain(reason);
}

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-vault-')));
  workspace = path.join(tmp, 'workspace');
  // The home inside the workspace: the case where everything depends on the guard.
  home = path.join(workspace, '.config', 'vmark');
  await fs.mkdir(path.join(workspace, '.vmark', 'ledger'), { recursive: true });
  await fs.mkdir(home, { recursive: true });
  await fs.writeFile(path.join(home, 'settings.json'), '{}\n');
  vault = new HostVault({ home });
});
afterEach(() => fs.rm(tmp, { recursive: true, force: true }));

describe('HostVault and the protected folders', () => {
  it('opens the workspace that contains them, and refuses a workspace at or inside them', async () => {
    await expect(vault.addWorkspaceRoot(workspace)).resolves.toBe(workspace);
    await expectRefused(vault.canonicalFolder(path.join(workspace, '.vmark')), INSIDE_LEDGER_FOLDER);
    await expectRefused(
      vault.canonicalFolder(path.join(workspace, '.vmark', 'ledger')),
      INSIDE_LEDGER_FOLDER,
    );
    await expectRefused(vault.addWorkspaceRoot(home), INSIDE_VMARK_HOME);
    await expectRefused(vault.addWorkspaceRoot(path.join(home, '.')), INSIDE_VMARK_HOME);
    await fs.symlink(home, path.join(tmp, 'notes'));
    await expectRefused(vault.canonicalFolder(path.join(tmp, 'notes')), INSIDE_VMARK_HOME);
    expect(vault.roots()).toEqual([workspace]);
  });

  it('refuses a file a person named in a protected folder: its folder would join the scope', async () => {
    await expectRefused(vault.consentedFile(path.join(home, 'settings.json')), INSIDE_VMARK_HOME);
    await fs.writeFile(path.join(tmp, 'elsewhere.md'), '');
    await expect(vault.consentedFile(path.join(tmp, 'elsewhere.md'))).resolves.toBe(
      path.join(tmp, 'elsewhere.md'),
    );
  });

  it('keeps them refused when an open document puts their parent in scope', async () => {
    await fs.writeFile(path.join(workspace, '.config', 'other.md'), '');
    vault.addDocumentFolder(path.join(workspace, '.config', 'other.md'));
    await expect(vault.resolve(path.join(workspace, '.config', 'other.md'))).resolves.toBeDefined();
    await expectRefused(vault.resolve(path.join(home, 'settings.json')), INSIDE_VMARK_HOME);
  });
});
