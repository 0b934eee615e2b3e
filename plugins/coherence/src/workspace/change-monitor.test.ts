import { mkdir, mkdtemp, readdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walkWorkspace } from '../kernel/scan/index.js';
import { ChangeMonitor, MAX_CHANGED_PATHS, type Changes } from './change-monitor.js';

let root: string;
let monitor: ChangeMonitor;

/** Whether nothing changed since the last mark or take (and takes it). */
const unchanged = async (m = monitor): Promise<boolean> => {
  const changes = await m.take();
  return !changes.all && changes.paths.size === 0;
};
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
    expect(await unchanged()).toBe(false);
  });

  it('is unchanged after a mark until a file changes, however deep, and the change is seen at once', async () => {
    monitor.mark();
    expect(await unchanged()).toBe(true);
    await writeFile(path.join(root, 'notes', 'deep', 'a.md'), 'b');
    expect(await unchanged()).toBe(false);
    monitor.mark();
    expect(await unchanged()).toBe(true);
  });

  it('sees files created, renamed and removed, and folders created later', async () => {
    monitor.mark();
    await mkdir(path.join(root, 'later'));
    expect(await unchanged()).toBe(false);
    monitor.mark();
    await writeFile(path.join(root, 'later', 'b.md'), 'b');
    expect(await unchanged()).toBe(false);
    monitor.mark();
    await rename(path.join(root, 'later', 'b.md'), path.join(root, 'later', 'c.md'));
    expect(await unchanged()).toBe(false);
    monitor.mark();
    await rm(path.join(root, 'later', 'c.md'));
    expect(await unchanged()).toBe(false);
  });

  it('sees a change written in place to a file that an atomic save had replaced', async () => {
    // Node 20's recursive watch on Linux follows each file's inode: after a rename over the
    // file, a later write went unseen (issue 10).
    const file = path.join(root, 'notes', 'deep', 'a.md');
    monitor.mark();
    await writeFile(`${file}.tmp`, 'saved atomically');
    await rename(`${file}.tmp`, file);
    expect(await unchanged()).toBe(false);
    // Until every event of that save has come in (a mark forgets only what came before it).
    for (let quiet = false; !quiet;) {
      quiet = await unchanged();
    }
    await writeFile(file, 'then edited in place');
    expect(await unchanged()).toBe(false);
  });

  it('ignores the ledger folder and git internals', async () => {
    await mkdir(path.join(root, '.git'));
    monitor.mark();
    await writeFile(path.join(root, '.vmark', 'ledger', 'w.jsonl'), '{}\n');
    await writeFile(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    expect(await unchanged()).toBe(true);
  });

  it('vouches for nothing without a ledger folder to sync through', async () => {
    const bare = new ChangeMonitor(root, path.join(root, 'missing'));
    try {
      bare.mark();
      expect(await unchanged(bare)).toBe(false);
    } finally {
      bare.dispose();
    }
  });

  it('sees a burst of changes made just before the question, and leaves no cookie behind', async () => {
    monitor.mark();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => writeFile(path.join(root, 'notes', `burst-${i}.md`), `${i}`)),
    );
    expect(await unchanged()).toBe(false);
    monitor.mark();
    expect(await unchanged()).toBe(true);
    expect((await readdir(path.join(root, '.vmark'))).filter((n) => n.startsWith('.vmark-sync-'))).toEqual(
      [],
    );
  });

  it('vouches for nothing once disposed', async () => {
    monitor.mark();
    monitor.dispose();
    expect(await unchanged()).toBe(false);
  });

  /** The paths taken, or 'all'. */
  const paths = (changes: Changes): string[] | 'all' => (changes.all ? 'all' : [...changes.paths].sort());

  it('says which paths changed, and forgets them once taken', async () => {
    monitor.mark();
    await writeFile(path.join(root, 'notes', 'deep', 'a.md'), 'edited');
    await writeFile(path.join(root, 'top.md'), 'new');
    expect(paths(await monitor.take())).toEqual(['notes/deep/a.md', 'top.md']);
    expect(paths(await monitor.take())).toEqual([]);
  });

  it('names both ends of a folder renamed inside the tree, and sees changes below the new name', async () => {
    monitor.mark();
    await rename(path.join(root, 'notes'), path.join(root, 'renamed'));
    const moved = await monitor.take();
    expect(moved.all).toBe(false);
    expect(paths(moved)).toEqual(expect.arrayContaining(['notes', 'renamed']));
    await writeFile(path.join(root, 'renamed', 'deep', 'a.md'), 'after the move');
    expect(paths(await monitor.take())).toContain('renamed/deep/a.md');
  });

  it('reports a folder moved in from outside again once it is watched', async () => {
    const outside = `${root}-outside`;
    await mkdir(path.join(outside, 'sub'), { recursive: true });
    try {
      monitor.mark();
      await rename(outside, path.join(root, 'inbound'));
      // Written before the folder's watch may be in place: no event of its own is promised.
      await writeFile(path.join(root, 'inbound', 'sub', 'early.md'), 'early');
      const first = await monitor.take();
      expect(paths(first)).toContain('inbound');
      await writeFile(path.join(root, 'inbound', 'sub', 'late.md'), 'late');
      expect(paths(await monitor.take())).toContain('inbound/sub/late.md');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('counts everything as changed beyond the paths worth re-checking one by one', async () => {
    monitor.mark();
    for (let i = 0; i <= MAX_CHANGED_PATHS; i += 256)
      await Promise.all(
        Array.from({ length: 256 }, (_, j) => writeFile(path.join(root, 'notes', `many-${i + j}.md`), '')),
      );
    expect(await monitor.take()).toEqual({ all: true });
    // Until the next mark (the whole walk that follows).
    expect(await monitor.take()).toEqual({ all: true });
    monitor.mark();
    expect(paths(await monitor.take())).toEqual([]);
  });

  it('counts everything as changed once told a re-check was not finished', async () => {
    monitor.mark();
    monitor.forget();
    expect(await monitor.take()).toEqual({ all: true });
  });

  describe('with the watches placed by the walk (ADR 77)', () => {
    it('watches every folder the walk lists, before listing it', async () => {
      const listed: string[] = [];
      const onFolder = monitor.mark(true);
      expect(onFolder).toBeDefined();
      const walked = await walkWorkspace(root, {
        onFolder: (relative) => {
          listed.push(relative);
          onFolder?.(relative);
        },
      });
      monitor.placed(walked.complete);
      expect(listed.sort()).toEqual(['', 'notes', 'notes/deep']);
      expect(await unchanged()).toBe(true);
      await writeFile(path.join(root, 'notes', 'deep', 'a.md'), 'b');
      expect(paths(await monitor.take())).toEqual(['notes/deep/a.md']);
      // The ledger's folder, which the walk never lists, is watched for the cookies all the same.
      await writeFile(path.join(root, '.vmark', 'ledger', 'w.jsonl'), '{}\n');
      expect(paths(await monitor.take())).toEqual([]);
      // A later mark leaves the watches as they are.
      expect(monitor.mark(true)).toBeUndefined();
    });

    it('lists the tree itself when the walk did not list every folder', async () => {
      const onFolder = monitor.mark(true);
      onFolder?.(''); // cut short after the root
      monitor.placed(false);
      await writeFile(path.join(root, 'notes', 'deep', 'a.md'), 'b');
      expect(paths(await monitor.take())).toEqual(['notes/deep/a.md']);
    });

    it('lists the tree itself when the walk failed part-way', async () => {
      const onFolder = monitor.mark(true);
      onFolder?.('');
      monitor.forget();
      monitor.mark();
      await writeFile(path.join(root, 'notes', 'deep', 'a.md'), 'b');
      expect(paths(await monitor.take())).toEqual(['notes/deep/a.md']);
    });
  });
});
