import { mkdir, mkdtemp, readdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeMonitor } from './change-monitor.js';

let root: string;
let monitor: ChangeMonitor;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-monitor-')));
  await mkdir(path.join(root, 'notes', 'deep'), { recursive: true });
  await writeFile(path.join(root, 'notes', 'deep', 'a.md'), 'a');
  await mkdir(path.join(root, '.vmark', 'ledger'), { recursive: true });
  monitor = new ChangeMonitor(root, path.join(root, '.vmark'));
});
afterEach(async () => {
  monitor.dispose();
  await rm(root, { recursive: true, force: true });
});

describe('ChangeMonitor', () => {
  it('counts as changed before the first mark', async () => {
    expect(await monitor.unchanged()).toBe(false);
  });

  it('is unchanged after a mark until a file changes, however deep, and the change is seen at once', async () => {
    monitor.mark();
    expect(await monitor.unchanged()).toBe(true);
    await writeFile(path.join(root, 'notes', 'deep', 'a.md'), 'b');
    expect(await monitor.unchanged()).toBe(false);
    monitor.mark();
    expect(await monitor.unchanged()).toBe(true);
  });

  it('sees files created, renamed and removed, and folders created later', async () => {
    monitor.mark();
    await mkdir(path.join(root, 'later'));
    expect(await monitor.unchanged()).toBe(false);
    monitor.mark();
    await writeFile(path.join(root, 'later', 'b.md'), 'b');
    expect(await monitor.unchanged()).toBe(false);
    monitor.mark();
    await rename(path.join(root, 'later', 'b.md'), path.join(root, 'later', 'c.md'));
    expect(await monitor.unchanged()).toBe(false);
    monitor.mark();
    await rm(path.join(root, 'later', 'c.md'));
    expect(await monitor.unchanged()).toBe(false);
  });

  it('sees a change written in place to a file that an atomic save had replaced', async () => {
    // Node 20's recursive watch on Linux follows each file's inode: after a rename over the
    // file, a later write went unseen (issue 10).
    const file = path.join(root, 'notes', 'deep', 'a.md');
    monitor.mark();
    await writeFile(`${file}.tmp`, 'saved atomically');
    await rename(`${file}.tmp`, file);
    expect(await monitor.unchanged()).toBe(false);
    // Until every event of that save has come in (a mark forgets only what came before it).
    for (let quiet = false; !quiet;) {
      monitor.mark();
      quiet = await monitor.unchanged();
    }
    await writeFile(file, 'then edited in place');
    expect(await monitor.unchanged()).toBe(false);
  });

  it('ignores the ledger folder and git internals', async () => {
    await mkdir(path.join(root, '.git'));
    monitor.mark();
    await writeFile(path.join(root, '.vmark', 'ledger', 'w.jsonl'), '{}\n');
    await writeFile(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    expect(await monitor.unchanged()).toBe(true);
  });

  it('vouches for nothing without a ledger folder to sync through', async () => {
    const bare = new ChangeMonitor(root, path.join(root, 'missing'));
    try {
      bare.mark();
      expect(await bare.unchanged()).toBe(false);
    } finally {
      bare.dispose();
    }
  });

  it('sees a burst of changes made just before the question, and leaves no cookie behind', async () => {
    monitor.mark();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => writeFile(path.join(root, 'notes', `burst-${i}.md`), `${i}`)),
    );
    expect(await monitor.unchanged()).toBe(false);
    monitor.mark();
    expect(await monitor.unchanged()).toBe(true);
    expect((await readdir(path.join(root, '.vmark'))).filter((n) => n.startsWith('.vmark-sync-'))).toEqual(
      [],
    );
  });

  it('vouches for nothing once disposed', async () => {
    monitor.mark();
    monitor.dispose();
    expect(await monitor.unchanged()).toBe(false);
  });
});
