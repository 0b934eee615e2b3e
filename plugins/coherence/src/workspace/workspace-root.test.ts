import { mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isArgumentError } from '@vmark/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkWorkspaceRoot, workspaceRootArg } from './workspace-root.js';

let root: string;
let other: string;
beforeAll(async () => {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-coh-root-')));
  root = path.join(base, 'vault');
  other = path.join(base, 'elsewhere');
  await mkdir(root);
  await mkdir(other);
  await writeFile(path.join(root, 'note.md'), '# x\n');
  await symlink(root, path.join(base, 'link-to-vault'));
});

async function refusal(input: string): Promise<string> {
  try {
    await checkWorkspaceRoot(input, [root]);
  } catch (error) {
    expect(isArgumentError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('workspace_root', () => {
  it('is required, with the original message', () => {
    expect(workspaceRootArg.safeParse(undefined).error?.issues[0]?.message).toBe(
      'workspace_root (string) is required — the absolute path of the workspace to query',
    );
  });

  it('accepts an open workspace, through a symlink too, as its canonical path', async () => {
    expect(await checkWorkspaceRoot(root, [root])).toBe(root);
    expect(await checkWorkspaceRoot(path.join(path.dirname(root), 'link-to-vault'), [root])).toBe(root);
  });

  it('refuses a relative path', async () => {
    expect(await refusal('vault')).toBe('workspace_root must be an absolute path, got: vault');
  });

  it('refuses a missing folder and a file', async () => {
    expect(await refusal(path.join(root, 'missing'))).toMatch(
      /^workspace_root is not an accessible directory: /,
    );
    expect(await refusal(path.join(root, 'note.md'))).toMatch(
      /^workspace_root is not an accessible directory: /,
    );
  });

  it('refuses NUL bytes', async () => {
    expect(await refusal(`${root}\0x`)).toMatch(/^workspace_root must be an absolute path/);
  });

  it('refuses a folder that is not an open workspace, a subfolder or parent of one included', async () => {
    expect(await refusal(other)).toMatch(/^workspace_root is not a workspace open in VMark: /);
    expect(await refusal(path.dirname(root))).toMatch(/not a workspace open in VMark/);
    await mkdir(path.join(root, 'sub'), { recursive: true });
    expect(await refusal(path.join(root, 'sub'))).toMatch(/not a workspace open in VMark/);
  });

  it('takes `.` and `..` segments as the folder they name', async () => {
    expect(await checkWorkspaceRoot(`${root}/.`, [root])).toBe(root);
    expect(await checkWorkspaceRoot(`${other}/../vault`, [root])).toBe(root);
  });
});
