import { watch } from 'node:fs';
import { readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { connectStdio, TempDirs } from './support/cli.js';

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
});
