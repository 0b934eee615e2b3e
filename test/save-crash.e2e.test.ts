import { watch } from 'node:fs';
import { mkdir, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { withFileLock } from '../core/vault/file-lock.js';
import { ownerTag } from '../core/vault/process-owner.js';
import { call, connectStdio, eventually, runCli, TempDirs } from './support/cli.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const MB = 1024 * 1024;

it('killing vmark in the middle of a save leaves the old or the new file, never a torn one', async () => {
  const workspace = await realpath(await temp.make());
  const file = path.join(workspace, 'big.md');
  const before = 'old line\n'.repeat((4 * MB) / 9);
  const after = 'new text!\n'.repeat((24 * MB) / 10);
  const outcomes: string[] = [];

  for (let round = 0; round < 3; round++) {
    await writeFile(file, before);
    const { client, transport } = await connectStdio(
      ['--workspace', workspace, '--open', file],
      await temp.make(),
    );
    // The moment the temporary file appears, the save is under way: kill the process then.
    const killed = new Promise<void>((resolve) => {
      const watcher = watch(workspace, (_event, name) => {
        if (name?.endsWith('.vmark-tmp') && transport.pid !== null) {
          process.kill(transport.pid, 'SIGKILL');
          watcher.close();
          resolve();
        }
      });
    });
    const write = client
      .callTool({ name: 'document', arguments: { action: 'write', content: after } })
      .catch(() => 'killed');
    await killed;
    await write;
    await client.close().catch(() => undefined);

    const onDisk = await readFile(file, 'utf8');
    expect(onDisk === before || onDisk === after).toBe(true);
    outcomes.push(onDisk === before ? 'old' : 'new');
  }
  // Each round was killed mid-save; the names of what is left are only temporary files, never the document.
  const names = await readdir(workspace);
  expect(names.filter((n) => !n.endsWith('.vmark-tmp'))).toEqual(['big.md']);
  expect(outcomes).toHaveLength(3);

  // The next vmark to open a file there removes what the killed ones left behind.
  const { client } = await connectStdio(['--workspace', workspace, '--open', file], await temp.make());
  try {
    await eventually(async () => (await readdir(workspace)).length === 1);
    expect(await readdir(workspace)).toEqual(['big.md']);
  } finally {
    await client.close();
  }
});

it('leaves alone the temp file of a save still under way in another vmark', async () => {
  const workspace = await realpath(await temp.make());
  const file = path.join(workspace, 'note.md');
  await writeFile(file, 'x\n');
  // Named as this (live) test process would name one: its owner is alive, so it is not swept.
  const live = `.note.md.${ownerTag()}.0123456789ab.vmark-tmp`;
  await writeFile(path.join(workspace, live), 'half-written');
  const { client } = await connectStdio(['--workspace', workspace, '--open', file], await temp.make());
  try {
    await call(client, 'session', { action: 'get_state' });
    expect((await readdir(workspace)).sort()).toEqual([live, 'note.md']);
  } finally {
    await client.close();
  }
});

/** A file for an AI edit to replace, in a new workspace, and a new VMARK_HOME. */
async function aiEditScene() {
  const workspace = await realpath(await temp.make());
  const home = await temp.make();
  const file = path.join(workspace, 'notes.md');
  const before = 'the text before the AI edit\n'.repeat(1000);
  await writeFile(file, before);
  return { workspace, home, file, before, folder: path.join(home, 'checkpoints') };
}

/** `vmark checkpoints list` names the AI write as the newest, and `restore` puts `before` back; its id. */
async function expectRestorable(home: string, file: string, before: string): Promise<string> {
  const listed = await runCli(['checkpoints', 'list', '--json'], { VMARK_HOME: home });
  const [newest] = JSON.parse(listed.stdout) as Array<{ id: string; filePath: string; tool: string }>;
  expect(newest).toMatchObject({ filePath: file, tool: 'document.write' });
  const restored = await runCli(['checkpoints', 'restore', newest!.id], { VMARK_HOME: home });
  expect(restored.code, restored.stderr).toBe(0);
  expect(await readFile(file, 'utf8')).toBe(before);
  return newest!.id;
}

it('a write answered saved: true leaves the text it replaced restorable, even if vmark is killed at once', async () => {
  const { workspace, home, file, before, folder } = await aiEditScene();
  const { client, transport } = await connectStdio(['--workspace', workspace, '--open', file], home);
  const pid = transport.pid!;
  // The checkpoint folder's lock, held here as another vmark would hold it, keeps the checkpoint
  // from being written until the file itself is on disk and some time has passed.
  await mkdir(folder, { recursive: true });
  let answered = false;
  const answer = await withFileLock(path.join(folder, 'index.lock'), async () => {
    const pending = call(client, 'document', { action: 'write', content: 'after\n' }).then((result) => {
      // Killed the moment the answer arrives: whatever the host had not made durable is lost.
      process.kill(pid, 'SIGKILL');
      answered = true;
      return result;
    });
    await eventually(async () => (await readFile(file, 'utf8')) === 'after\n');
    await sleep(300);
    return { pending, answeredWhileLocked: answered };
  });
  const result = await answer.pending;
  await client.close().catch(() => undefined);
  expect(answer.answeredWhileLocked).toBe(false);
  expect(result.data).toMatchObject({ saved: true });
  await expectRestorable(home, file, before);
}, 90_000);

it('a checkpoint whose index line was never written (killed at the answer) is found again and restorable', async () => {
  const { workspace, home, file, before, folder } = await aiEditScene();
  // A folder where the index would be: every index append fails, so the only trace of the
  // checkpoint is its own file, as when a crash comes between the answer and the index line.
  await mkdir(path.join(folder, 'index.jsonl'), { recursive: true });
  const { client, transport } = await connectStdio(['--workspace', workspace, '--open', file], home);
  const pid = transport.pid!;
  const result = await call(client, 'document', { action: 'write', content: 'after\n' }).then((answer) => {
    process.kill(pid, 'SIGKILL');
    return answer;
  });
  await client.close().catch(() => undefined);
  expect(result.data).toMatchObject({ saved: true });
  expect(await readFile(file, 'utf8')).toBe('after\n');
  await rm(path.join(folder, 'index.jsonl'), { recursive: true });

  const id = await expectRestorable(home, file, before);
  // The restore's own checkpoint was appended by a store that read the history whole: the
  // line the killed one could not write is in the index now.
  expect(await readFile(path.join(folder, 'index.jsonl'), 'utf8')).toContain(id);
}, 90_000);
