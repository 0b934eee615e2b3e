// The person's grant record in $VMARK_HOME, on a real file system: written whole and private,
// read with bounds, and every kind of damage reads as "authorizes nothing", never as a grant.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidv7 } from '../kernel/identity/index.js';
import { GrantRecord, MAX_RECORD_BYTES, MAX_RECORDED_GRANTS, type RecordedGrant } from './grant-record.js';

const ROOT = '/home/ada/novel';
let home: string;
let record: GrantRecord;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-grants-'));
  record = new GrantRecord(home);
});
afterEach(() => rm(home, { recursive: true, force: true }));

function grant(more: Partial<RecordedGrant> = {}): RecordedGrant {
  return {
    grant: uuidv7(),
    entry: uuidv7(),
    delegate: 'claude-code',
    scope: ['resolve.accept-newer'],
    expires: '2099-01-01T00:00:00.000Z',
    ...more,
  };
}

/** Writes a grant file by hand, as damage (or a person with a shell) would. */
async function plant(name: string, text: string): Promise<string> {
  const folder = record.folderOf(ROOT);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, name), text);
  return path.join(folder, name);
}

describe('writing and reading', () => {
  it('a missing record is an empty one', async () => {
    expect(await record.read(ROOT)).toEqual({ readable: true, grants: [], damaged: [] });
  });

  it('reads back what it wrote, per workspace, private to the person', async () => {
    const g = grant();
    await record.add(ROOT, g);
    expect(await record.read(ROOT)).toEqual({ readable: true, grants: [g], damaged: [] });
    expect(await record.read('/home/ada/other')).toEqual({ readable: true, grants: [], damaged: [] });
    const folder = record.folderOf(ROOT);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(folder, `${g.grant}.json`))).mode & 0o777).toBe(0o600);
    // Nothing but the grant file is left: the temporary name was renamed away.
    expect(await readdir(folder)).toEqual([`${g.grant}.json`]);
  });

  it('forgets a revoked grant, and says whether it held it', async () => {
    const g = grant();
    await record.add(ROOT, g);
    expect(await record.remove(ROOT, g.grant)).toBe(true);
    expect(await record.remove(ROOT, g.grant)).toBe(false);
    expect((await record.read(ROOT)).readable && (await record.read(ROOT))).toMatchObject({ grants: [] });
  });

  it('ignores temporary files a crash left behind', async () => {
    const g = grant();
    await record.add(ROOT, g);
    await plant(`.${g.grant}.json.0123456789ab.tmp`, '{"format":1');
    expect(await record.read(ROOT)).toEqual({ readable: true, grants: [g], damaged: [] });
  });

  it('refuses to write a record over its bound, and writes nothing', async () => {
    await expect(record.add(ROOT, grant({ delegate: 'x'.repeat(MAX_RECORD_BYTES) }))).rejects.toThrow(
      /under 4096 bytes/,
    );
    expect(await record.read(ROOT)).toEqual({ readable: true, grants: [], damaged: [] });
  });
});

describe('damage authorizes nothing', () => {
  it.each([
    ['not JSON', '{"format":1,"grant":', 'not JSON'],
    ['truncated to nothing', '', 'not JSON'],
    ['another shape', '{"format":1,"grant":"x"}', 'not a grant record'],
    ['a future format', null, 'not a grant record'],
  ])('a grant file that is %s', async (_what, text, reason) => {
    const g = grant();
    const body = text ?? JSON.stringify({ format: 2, workspace: ROOT, ...g });
    await plant(`${g.grant}.json`, body);
    expect(await record.read(ROOT)).toEqual({
      readable: true,
      grants: [],
      damaged: [{ grant: g.grant, reason }],
    });
  });

  it('a grant file copied from another workspace, or renamed to another grant', async () => {
    const g = grant();
    await plant(`${g.grant}.json`, JSON.stringify({ format: 1, workspace: '/home/ada/other', ...g }));
    const renamed = uuidv7();
    await plant(`${renamed}.json`, JSON.stringify({ format: 1, workspace: ROOT, ...grant() }));
    const read = await record.read(ROOT);
    expect(read).toMatchObject({ readable: true, grants: [] });
    expect(read.readable && read.damaged.map((d) => d.reason)).toEqual([
      'names another grant or workspace',
      'names another grant or workspace',
    ]);
  });

  it('a grant file over the bound', async () => {
    const g = grant();
    await plant(
      `${g.grant}.json`,
      JSON.stringify({ format: 1, workspace: ROOT, ...g }) + ' '.repeat(MAX_RECORD_BYTES),
    );
    const read = await record.read(ROOT);
    expect(read.readable && read.damaged).toEqual([{ grant: g.grant, reason: 'larger than 4096 bytes' }]);
  });

  it('a grant file that is a link, a folder or a FIFO (read without following or waiting)', async () => {
    const target = path.join(home, 'elsewhere.json');
    const g = grant();
    await writeFile(target, JSON.stringify({ format: 1, workspace: ROOT, ...g }));
    const folder = record.folderOf(ROOT);
    await mkdir(folder, { recursive: true });
    await symlink(target, path.join(folder, `${g.grant}.json`));
    const asFolder = uuidv7();
    await mkdir(path.join(folder, `${asFolder}.json`));
    const fifo = uuidv7();
    execFileSync('mkfifo', [path.join(folder, `${fifo}.json`)]);
    const read = await record.read(ROOT);
    expect(read).toMatchObject({ readable: true, grants: [] });
    expect(read.readable && read.damaged.map((d) => d.grant).sort()).toEqual(
      [g.grant, asFolder, fifo].sort(),
    );
  });

  it('a record folder that cannot be listed', async () => {
    await mkdir(path.dirname(record.folderOf(ROOT)), { recursive: true });
    await writeFile(record.folderOf(ROOT), 'a file where the folder should be');
    expect(await record.read(ROOT)).toEqual({ readable: false, reason: expect.stringContaining('ENOTDIR') });
  });

  it(`a record holding more than ${MAX_RECORDED_GRANTS} grants, which this installation never writes`, async () => {
    await Promise.all(Array.from({ length: MAX_RECORDED_GRANTS + 1 }, () => plant(`${uuidv7()}.json`, '{}')));
    expect(await record.read(ROOT)).toEqual({
      readable: false,
      reason: expect.stringContaining(`more than ${MAX_RECORDED_GRANTS}`),
    });
  });
});

describe('bounds', () => {
  it('makeRoom drops expired grants and refuses once the workspace is full', async () => {
    const now = new Date('2026-07-18T09:00:00.000Z');
    const expired = grant({ expires: '2026-07-18T08:59:59.999Z' });
    await record.add(ROOT, expired);
    const fill = Array.from({ length: MAX_RECORDED_GRANTS - 1 }, () => grant());
    await Promise.all(
      fill.map((g) => plant(`${g.grant}.json`, JSON.stringify({ format: 1, workspace: ROOT, ...g }))),
    );
    await record.makeRoom(ROOT, now);
    const read = await record.read(ROOT);
    expect(read.readable && read.grants.length).toBe(MAX_RECORDED_GRANTS - 1);
    expect(read.readable && read.grants.some((g) => g.grant === expired.grant)).toBe(false);
    await record.add(ROOT, grant());
    await expect(record.makeRoom(ROOT, now)).rejects.toThrow(
      /already has 256 live grants; revoke some first/,
    );
    // An unreadable record takes no grant either: it would authorize nothing.
    await plant(`${uuidv7()}.json`, '{}');
    await expect(record.makeRoom(ROOT, now)).rejects.toThrow(/cannot be read: .* repair or remove it first/);
  });

  it('keeps the written text exactly: one JSON line naming the workspace', async () => {
    const g = grant();
    await record.add(ROOT, g);
    expect(await readFile(path.join(record.folderOf(ROOT), `${g.grant}.json`), 'utf8')).toBe(
      JSON.stringify({ format: 1, workspace: ROOT, ...g }) + '\n',
    );
  });
});
