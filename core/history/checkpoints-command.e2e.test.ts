import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CheckpointEntry } from './checkpoint-entry.js';
import { CheckpointStore, type NewCheckpoint } from './checkpoint-store.js';

/*
 * `vmark checkpoints` as a person runs it: the built CLI (npm run build) in a
 * child process, over a VMARK_HOME this test fills through the store's API.
 */

const CLI = fileURLToPath(new URL('../dist/bundle/main.js', import.meta.url));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let home: string;
let workspace: string;
let file: string;
let store: CheckpointStore;

function vmark(args: readonly string[], cwd = workspace): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, VMARK_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** What the recorder would have stored for an AI edit from `contentBefore` to what is on disk now. */
function aiEdit(contentBefore: string, more: Partial<NewCheckpoint> = {}): NewCheckpoint {
  return {
    tabId: 'tab-1',
    filePath: file,
    tool: 'document.write',
    description: 'Wrote document (+9 chars, was 9, now 18)',
    revisionBefore: 'rev-AAAAAAAA',
    revisionAfter: 'rev-BBBBBBBB',
    contentBefore,
    ...more,
  };
}

beforeAll(async () => {
  await fs.access(CLI).catch(() => {
    throw new Error(`${CLI} is missing: run npm run build first`);
  });
});

beforeEach(async () => {
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-ckpt-home-')));
  workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-ckpt-ws-')));
  file = path.join(workspace, 'notes.md');
  await fs.writeFile(file, '# Notes\nrewritten by AI\n');
  store = new CheckpointStore({ home });
});

afterEach(async () => {
  await fs.chmod(file, 0o644).catch(() => undefined);
  await fs.rm(home, { recursive: true, force: true });
  await fs.rm(workspace, { recursive: true, force: true });
});

describe('vmark checkpoints list', () => {
  it('lists newest first, as JSON and as a table, filtered by file', async () => {
    const older = await store.append(aiEdit('# Notes\n'));
    const other = await store.append(
      aiEdit('x', {
        filePath: path.join(workspace, 'other.md'),
        tool: 'selection.set',
        description: 'Set\nit',
      }),
    );

    const json = await vmark(['checkpoints', 'list', '--json']);
    expect(json).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(json.stdout)).toEqual([other, older]);

    // A relative path, from the folder the command runs in.
    const filtered = await vmark(['checkpoints', 'list', '--json', '--file', 'notes.md']);
    expect(JSON.parse(filtered.stdout)).toEqual([older]);

    const table = await vmark(['checkpoints', 'list']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+TIME\s+TOOL\s+FILE\s+DESCRIPTION$/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(other.id);
    // A newline in a description cannot break the table.
    expect(lines[1]).toMatch(/selection\.set\s+.*other\.md\s+Set it$/);
    expect(lines[2]).toMatch(
      new RegExp(`^${older.id}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+document\\.write\\s+`),
    );
  });

  it('says so when there are none', async () => {
    expect(await vmark(['checkpoints', 'list'])).toMatchObject({ code: 0, stdout: 'No checkpoints.\n' });
    expect(await vmark(['checkpoints', 'list', '--json'])).toMatchObject({ code: 0, stdout: '[]\n' });
  });
});

describe('vmark checkpoints restore', () => {
  it('puts the old text back as a new save, records the restore, and can undo it', async () => {
    const checkpoint = await store.append(aiEdit('# Notes\n'));
    const restored = await vmark(['checkpoints', 'restore', checkpoint.id]);
    expect(restored).toMatchObject({ code: 0, stderr: '' });
    const result = JSON.parse(restored.stdout) as { restored: string; filePath: string; revision: string };
    expect(result).toEqual({
      restored: checkpoint.id,
      filePath: file,
      revision: expect.stringMatching(/^rev-/),
    });
    expect(await fs.readFile(file, 'utf8')).toBe('# Notes\n');

    const [undo, ...rest] = await store.list();
    expect(rest).toEqual([checkpoint]);
    expect(undo).toMatchObject<Partial<CheckpointEntry>>({
      filePath: file,
      tool: 'checkpoints.restore',
      description: `Restored ${checkpoint.id} (-16 chars, was 24, now 8)`,
      revisionAfter: result.revision,
    });
    expect((await store.get(undo!.id)).contentBefore).toBe('# Notes\nrewritten by AI\n');

    // The restore is itself a checkpoint: restoring it undoes the restore.
    const again = await vmark(['checkpoints', 'restore', undo!.id]);
    expect(again.code).toBe(0);
    expect(await fs.readFile(file, 'utf8')).toBe('# Notes\nrewritten by AI\n');
    expect(await store.list()).toHaveLength(3);
  });

  it('refuses an unknown id', async () => {
    await store.append(aiEdit('# Notes\n'));
    for (const id of ['ckpt-00000000000000000', '../index.jsonl']) {
      const run = await vmark(['checkpoints', 'restore', id]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        /^vmark: .*(no checkpoint with id|is not a checkpoint id).*checkpoints list/,
      );
    }
    expect(await fs.readFile(file, 'utf8')).toBe('# Notes\nrewritten by AI\n');
  });

  it('refuses a file that was deleted, and does not create it again', async () => {
    const checkpoint = await store.append(aiEdit('# Notes\n'));
    await fs.rm(file);
    const run = await vmark(['checkpoints', 'restore', checkpoint.id]);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toContain('no longer exists; nothing was restored');
    await expect(fs.access(file)).rejects.toThrow();
    expect(await store.list()).toHaveLength(1);
  });

  it('refuses when the save fails, writing nothing and recording nothing', async () => {
    const checkpoint = await store.append(aiEdit('# Notes\n'));
    await fs.chmod(file, 0o444);
    const run = await vmark(['checkpoints', 'restore', checkpoint.id]);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(/read-only.*\(READ_ONLY\); nothing was restored/);
    expect(await fs.readFile(file, 'utf8')).toBe('# Notes\nrewritten by AI\n');
    expect(await store.list()).toEqual([checkpoint]);
  });

  it('refuses a checkpoint of an untitled document', async () => {
    const checkpoint = await store.append(aiEdit('draft', { filePath: null }));
    const run = await vmark(['checkpoints', 'restore', checkpoint.id]);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toContain('untitled document');
  });

  it('is a usage error without an id or with an unknown verb', async () => {
    expect((await vmark(['checkpoints', 'restore'])).code).toBe(2);
    expect((await vmark(['checkpoints', 'undo'])).code).toBe(2);
  });
});
