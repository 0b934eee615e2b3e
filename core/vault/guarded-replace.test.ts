import { execFileSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type DiskState, diskStateOf } from './file-fingerprint.js';
import { replaceIfUnchanged, type SavePoint } from './guarded-replace.js';
import type { LateWrite } from './late-writes.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-guarded-'));
  file = path.join(dir, 'note.md');
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** What the host remembers after reading the file now. */
async function known(): Promise<DiskState> {
  const bytes = await fs.readFile(file);
  return diskStateOf(await fs.stat(file, { bigint: true }), bytes);
}

const ours = Buffer.from('ours\n');

/** A probe that runs `act` once, at `point`. */
function at(point: SavePoint, act: () => Promise<void>): (reached: SavePoint) => Promise<void> {
  return async (reached) => {
    if (reached === point) await act();
  };
}

/** This process's descriptors open on files in the test's folder (a replaced version reads "(deleted)"). */
function descriptorsInDir(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(dir + path.sep) ? [target] : [];
    } catch {
      return []; // closed since the listing (the listing's own descriptor among them)
    }
  });
}

async function leftovers(): Promise<string[]> {
  return (await fs.readdir(dir)).filter((name) => name !== 'note.md');
}

describe('replaceIfUnchanged', () => {
  it('replaces a file that still holds what the host knows', async () => {
    await fs.writeFile(file, 'theirs\n');
    const outcome = await replaceIfUnchanged(file, ours, await known());
    expect(outcome.kind).toBe('written');
    expect(await fs.readFile(file, 'utf8')).toBe('ours\n');
    if (outcome.kind === 'written') expect(outcome.disk).toEqual(await known());
    expect(await leftovers()).toEqual([]);
  });

  it('creates a file where none was expected and none is', async () => {
    const outcome = await replaceIfUnchanged(file, ours, null);
    expect(outcome.kind).toBe('written');
    expect(await fs.readFile(file, 'utf8')).toBe('ours\n');
    expect(await leftovers()).toEqual([]);
  });

  it("after the rename, removes nothing at the temp file's name (it is not ours any more)", async () => {
    await fs.writeFile(file, 'theirs\n');
    let tempName = '';
    const probe = async (point: SavePoint) => {
      if (point === 'staged') [tempName = ''] = await leftovers();
      // Another program takes the name the rename freed; a save that removed its temp file by
      // name after the rename would delete that program's file.
      if (point === 'renamed') await fs.writeFile(path.join(dir, tempName), 'another program\n');
    };
    const outcome = await replaceIfUnchanged(file, ours, await known(), { probe });
    expect(outcome.kind).toBe('written');
    expect(tempName).toMatch(/^\.note\.md\..*\.vmark-tmp$/);
    expect(await fs.readFile(path.join(dir, tempName), 'utf8')).toBe('another program\n');
    expect(await fs.readFile(file, 'utf8')).toBe('ours\n');
  });

  it('removes its temp file when the check finds the file changed, and after linking a new file', async () => {
    await fs.writeFile(file, 'theirs\n');
    const stale = await known();
    await fs.writeFile(file, 'changed\n');
    expect((await replaceIfUnchanged(file, ours, stale)).kind).toBe('changed');
    expect(await leftovers()).toEqual([]);
    await fs.rm(file);
    expect((await replaceIfUnchanged(file, ours, null)).kind).toBe('written');
    expect(await leftovers()).toEqual([]);
  });

  it('refuses to create over a file that is already there', async () => {
    await fs.writeFile(file, 'theirs\n');
    const outcome = await replaceIfUnchanged(file, ours, null);
    expect(outcome).toMatchObject({ kind: 'changed', found: { bytes: Buffer.from('theirs\n') } });
    expect(await fs.readFile(file, 'utf8')).toBe('theirs\n');
  });

  describe('an outside program appending in place', () => {
    for (const point of ['staged', 'locked', 'checked', 'before-rename'] as const) {
      it(`at "${point}" is kept, and the save reports what it found`, async () => {
        await fs.writeFile(file, 'base\n');
        const expected = await known();
        const probe = at(point, () => fs.appendFile(file, 'appended\n'));
        const outcome = await replaceIfUnchanged(file, ours, expected, { probe });
        expect(outcome).toMatchObject({ kind: 'changed', found: { bytes: Buffer.from('base\nappended\n') } });
        expect(await fs.readFile(file, 'utf8')).toBe('base\nappended\n');
        expect(await leftovers()).toEqual([]);
      });
    }

    it('through a handle opened before the rename and written after it is put back', async () => {
      await fs.writeFile(file, 'base\n');
      const expected = await known();
      let handle: fs.FileHandle | undefined;
      const probe = async (point: SavePoint) => {
        if (point === 'checked') handle = await fs.open(file, 'a');
        if (point === 'renamed') await handle!.write('appended late\n');
      };
      try {
        const outcome = await replaceIfUnchanged(file, ours, expected, { probe });
        expect(outcome.kind).toBe('changed');
        expect(await fs.readFile(file, 'utf8')).toBe('base\nappended late\n');
      } finally {
        await handle?.close();
      }
      expect(await leftovers()).toEqual([]);
    });
  });

  it('keeps a file another program replaced (a new inode) between the check and the rename', async () => {
    await fs.writeFile(file, 'base\n');
    const expected = await known();
    const probe = at('before-rename', async () => {
      await fs.writeFile(`${file}.theirs`, 'replaced\n');
      await fs.rename(`${file}.theirs`, file);
    });
    const outcome = await replaceIfUnchanged(file, ours, expected, { probe });
    expect(outcome).toMatchObject({ kind: 'changed', found: { bytes: Buffer.from('replaced\n') } });
    expect(await fs.readFile(file, 'utf8')).toBe('replaced\n');
  });

  describe('the file opened while the new bytes are synced', () => {
    it('is looked at again under the lock: a copy put in its place with the same bytes is saved over', async () => {
      await fs.writeFile(file, 'base\n');
      const expected = await known();
      // A new inode at the name after the early open, holding what the host knows.
      const probe = at('staged', async () => {
        await fs.writeFile(`${file}.copy`, 'base\n');
        await fs.rename(`${file}.copy`, file);
      });
      const outcome = await replaceIfUnchanged(file, ours, expected, { probe });
      expect(outcome.kind).toBe('written');
      expect(await fs.readFile(file, 'utf8')).toBe('ours\n');
      expect(await leftovers()).toEqual([]);
    });

    it('is not trusted once another file took its name: that file is kept and reported', async () => {
      await fs.writeFile(file, 'base\n');
      const expected = await known();
      const probe = at('staged', async () => {
        await fs.writeFile(`${file}.theirs`, 'replaced\n');
        await fs.rename(`${file}.theirs`, file);
      });
      const outcome = await replaceIfUnchanged(file, ours, expected, { probe });
      expect(outcome).toMatchObject({ kind: 'changed', found: { bytes: Buffer.from('replaced\n') } });
      expect(await fs.readFile(file, 'utf8')).toBe('replaced\n');
      expect(await leftovers()).toEqual([]);
    });

    it('is not trusted once it was deleted: nothing is brought back', async () => {
      await fs.writeFile(file, 'base\n');
      const expected = await known();
      const outcome = await replaceIfUnchanged(file, ours, expected, {
        probe: at('staged', () => fs.rm(file)),
      });
      expect(outcome).toEqual({ kind: 'changed', found: null });
      expect(await fs.readdir(dir)).toEqual([]);
    });
  });

  it('does not bring back a file deleted during the save, and says there is none', async () => {
    await fs.writeFile(file, 'base\n');
    const expected = await known();
    const outcome = await replaceIfUnchanged(file, ours, expected, {
      probe: at('checked', () => fs.rm(file)),
    });
    expect(outcome).toEqual({ kind: 'changed', found: null });
    await expect(fs.access(file)).rejects.toThrow();
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('keeps a file created by someone else while it was creating one', async () => {
    const probe = at('checked', () => fs.writeFile(file, 'theirs first\n'));
    const outcome = await replaceIfUnchanged(file, ours, null, { probe });
    expect(outcome).toMatchObject({ kind: 'changed', found: { bytes: Buffer.from('theirs first\n') } });
    expect(await fs.readFile(file, 'utf8')).toBe('theirs first\n');
    expect(await leftovers()).toEqual([]);
  });

  it('lets only one of two saves from the same version through', async () => {
    await fs.writeFile(file, 'base\n');
    const expected = await known();
    const outcomes = await Promise.all([
      replaceIfUnchanged(file, Buffer.from('first\n'), expected),
      replaceIfUnchanged(file, Buffer.from('second\n'), expected),
    ]);
    const written = outcomes.filter((o) => o.kind === 'written');
    expect(written).toHaveLength(1);
    const text = await fs.readFile(file, 'utf8');
    const loser = outcomes.find((o) => o.kind === 'changed');
    // The one refused found the winner's bytes.
    expect(loser).toMatchObject({ found: { bytes: Buffer.from(text) } });
    expect(await leftovers()).toEqual([]);
  });

  it('does not mistake a touch for a change', async () => {
    await fs.writeFile(file, 'base\n');
    const expected = await known();
    const later = new Date(Date.now() + 5_000);
    await fs.utimes(file, later, later);
    expect((await replaceIfUnchanged(file, ours, expected)).kind).toBe('written');
  });

  it('answers at once, writing nothing, when a named pipe stands where the file was', async () => {
    await fs.writeFile(file, 'base\n');
    const expected = await known();
    await fs.rm(file);
    execFileSync('mkfifo', [file]);
    await expect(replaceIfUnchanged(file, ours, expected)).rejects.toMatchObject({ code: 'INVALID_PATH' });
    expect((await fs.lstat(file)).isFIFO()).toBe(true);
  });

  describe('writes that reach the replaced version after the save', () => {
    /** Saves with a handle on the old version opened just before the rename; reports what came late. */
    async function saveThenWriteLate(late: (handle: fs.FileHandle) => Promise<unknown>) {
      await fs.writeFile(file, 'base\n');
      const expected = await known();
      let handle: fs.FileHandle | undefined;
      const reported = new Promise<LateWrite>((resolve) => {
        void replaceIfUnchanged(file, ours, expected, {
          probe: async (point) => {
            if (point === 'checked') handle = await fs.open(file, 'r+');
          },
          onLateWrite: resolve,
        }).then(async (outcome) => {
          expect(outcome.kind).toBe('written');
          await late(handle!);
          await handle!.close();
        });
      });
      return reported;
    }

    it('an append is reported with exactly the appended bytes', async () => {
      const late = await saveThenWriteLate((h) => h.write('late line\n', 5));
      expect(late).toEqual({ kind: 'append', suffix: Buffer.from('late line\n') });
      expect(await fs.readFile(file, 'utf8')).toBe('ours\n');
    });

    it('a program that writes again is followed: each append is reported with its own bytes, late ones too', async () => {
      await fs.writeFile(file, 'base\n');
      const expected = await known();
      let handle: fs.FileHandle | undefined;
      const reports: LateWrite[] = [];
      const outcome = await replaceIfUnchanged(file, ours, expected, {
        probe: async (point) => {
          if (point === 'checked') handle = await fs.open(file, 'r+');
        },
        onLateWrite: (late) => reports.push(late),
      });
      expect(outcome.kind).toBe('written');
      await handle!.write('first\n', 5);
      await vi.waitFor(() => expect(reports).toHaveLength(1), { timeout: 2_000, interval: 5 });
      // Past the first look's window (one second before ADR 89), as a loaded machine allows.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await handle!.write('second\n', 11);
      await vi.waitFor(() => expect(reports).toHaveLength(2), { timeout: 5_000, interval: 20 });
      await handle!.close();
      expect(reports).toEqual([
        { kind: 'append', suffix: Buffer.from('first\n') },
        { kind: 'append', suffix: Buffer.from('second\n') },
      ]);
    });

    it('any other change is reported with all the bytes of the replaced version', async () => {
      const late = await saveThenWriteLate((h) => h.write('BASE', 0));
      expect(late).toEqual({ kind: 'rewrite', bytes: Buffer.from('BASE\n') });
    });
  });

  it('leaves no descriptor open on any outcome without a late-write watch (plain descriptors, ADR 98)', async () => {
    await fs.writeFile(file, 'base\n');
    // Written: the replaced version's descriptor is let go of, not watched.
    expect((await replaceIfUnchanged(file, ours, await known())).kind).toBe('written');
    // Changed before the lock, in place (read through the early descriptor) and by a new file at the name.
    const stale = await known();
    await fs.appendFile(file, 'theirs\n');
    expect((await replaceIfUnchanged(file, ours, stale)).kind).toBe('changed');
    const replacedAtLock = await known();
    const outcome = await replaceIfUnchanged(file, ours, replacedAtLock, {
      probe: at('staged', async () => {
        await fs.writeFile(path.join(dir, 'other.md'), 'another\n');
        await fs.rename(path.join(dir, 'other.md'), file);
      }),
    });
    expect(outcome.kind).toBe('changed');
    // Replaced between the check and the rename; written in place in the same window.
    const beforeRename = await known();
    expect(
      (
        await replaceIfUnchanged(file, ours, beforeRename, {
          probe: at('before-rename', () => fs.appendFile(file, 'late\n')),
        })
      ).kind,
    ).toBe('changed');
    // A file expected where there is none, and one created where none was expected.
    await fs.rm(file);
    expect((await replaceIfUnchanged(file, ours, beforeRename)).kind).toBe('changed');
    expect((await replaceIfUnchanged(file, ours, null)).kind).toBe('written');
    // Closed on the thread pool, not waited for by the save.
    await vi.waitFor(() => expect(descriptorsInDir()).toEqual([]), { timeout: 5_000, interval: 5 });
  });

  it('keeps the replaced version open while it watches it', async () => {
    await fs.writeFile(file, 'base\n');
    const outcome = await replaceIfUnchanged(file, ours, await known(), { onLateWrite: () => undefined });
    expect(outcome.kind).toBe('written');
    expect(descriptorsInDir()).toEqual([`${file} (deleted)`]);
  });

  it('keeps the mode of the file it replaces', async () => {
    await fs.writeFile(file, 'base\n', { mode: 0o640 });
    await fs.chmod(file, 0o640);
    await replaceIfUnchanged(file, ours, await known());
    expect((await fs.stat(file)).mode & 0o777).toBe(0o640);
  });
});
