import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownerTag, thisProcess } from './process-owner.js';
import { sweepTempFiles } from './sweep-temp-files.js';
import { saveLockPathFor, tempPathFor } from './temp-files.js';

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-sweep-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

const put = (name: string, text = 'x') => fs.writeFile(path.join(dir, name), text);
const hourAgo = async (name: string) => {
  const past = new Date(Date.now() - 2 * 60 * 60_000);
  await fs.utimes(path.join(dir, name), past, past);
};

describe('sweepTempFiles', () => {
  it('removes the temp files and locks of processes that have ended, and nothing else', async () => {
    const dead = ownerTag({ ...thisProcess(), pid: deadPid() });
    await put(`.big.md.${dead}.0123456789ab.vmark-tmp`, 'ten megabytes, once');
    await put('.big.md.lock.vmark-tmp', `${dead} token`);
    const live = path.basename(tempPathFor(path.join(dir, 'live.md')));
    await put(live);
    await put(path.basename(saveLockPathFor(path.join(dir, 'live.md'))), `${ownerTag()} token`);
    const foreign = `.x.md.${ownerTag({ host: 'abcdef', boot: '', pid: deadPid() })}.0123456789ab.vmark-tmp`;
    await put(foreign);
    await put('note.md');
    await put('.hidden-but-mine.md');
    await put('notes.vmark-tmp');

    const removed = await sweepTempFiles(dir);
    expect(removed.sort()).toEqual(
      [`.big.md.${dead}.0123456789ab.vmark-tmp`, '.big.md.lock.vmark-tmp'].sort(),
    );
    expect((await fs.readdir(dir)).sort()).toEqual(
      [live, '.live.md.lock.vmark-tmp', foreign, 'note.md', '.hidden-but-mine.md', 'notes.vmark-tmp'].sort(),
    );
  });

  it('removes temp files of earlier versions, which name no process, once they are an hour old', async () => {
    await put('.old.md.0123456789ab.vmark-tmp');
    await put('.fresh.md.ba9876543210.vmark-tmp');
    await hourAgo('.old.md.0123456789ab.vmark-tmp');
    expect(await sweepTempFiles(dir)).toEqual(['.old.md.0123456789ab.vmark-tmp']);
    expect(await fs.readdir(dir)).toEqual(['.fresh.md.ba9876543210.vmark-tmp']);
  });

  it('answers for a folder that is gone without throwing', async () => {
    expect(await sweepTempFiles(path.join(dir, 'missing'))).toEqual([]);
  });
});
