import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECOVERY_FOLDER, RecoveryCopies } from './recovery-copies.js';

let home: string;
let copies: RecoveryCopies;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-recovery-'));
  copies = new RecoveryCopies(home);
});
afterEach(() => rm(home, { recursive: true, force: true }));

const edit = (filePath: string | null, keptAt = '2026-01-01T00:00:00.000Z') => ({
  filePath,
  kind: 'markdown',
  content: `text of ${filePath}`,
  keptAt,
  diskSha256: null,
  conflict: false,
});

describe('RecoveryCopies', () => {
  it('keeps each copy in a private folder of VMARK_HOME and lists them oldest first', async () => {
    const later = await copies.keep(edit('/v/b.md', '2026-01-02T00:00:00.000Z'));
    const earlier = await copies.keep(edit(null));
    expect(later.id).toMatch(/^rec-[0-9a-f]{16}$/);
    expect((await copies.list()).map((c) => c.id)).toEqual([earlier.id, later.id]);
    expect((await stat(path.join(home, RECOVERY_FOLDER))).mode & 0o777).toBe(0o700);
  });

  it('lists nothing when nothing was ever kept', async () => {
    expect(await copies.list()).toEqual([]);
  });

  it('hands a copy to one claim only; a claim put back offers it again', async () => {
    const { id } = await copies.keep(edit('/v/a.md'));
    const [one, two] = await Promise.all([copies.claim(id), copies.claim(id)]);
    expect([one, two].filter((c) => c !== null)).toHaveLength(1);
    const claimed = (one ?? two)!;
    expect(claimed.copy.content).toBe('text of /v/a.md');
    expect(await copies.list()).toEqual([]);
    await claimed.putBack();
    expect((await copies.list()).map((c) => c.id)).toEqual([id]);
    expect(await copies.discard(id)).toBe(true);
    expect(await copies.discard(id)).toBe(false);
    expect(await readdir(path.join(home, RECOVERY_FOLDER))).toEqual([]);
  });

  it('offers no file that does not parse, and claims nothing by a name that is no id', async () => {
    await mkdir(path.join(home, RECOVERY_FOLDER), { recursive: true });
    await writeFile(path.join(home, RECOVERY_FOLDER, 'rec-0000000000000000.json'), '{"torn":');
    await writeFile(path.join(home, RECOVERY_FOLDER, 'notes.json'), JSON.stringify(edit('/v/a.md')));
    expect(await copies.list()).toEqual([]);
    expect(await copies.claim('../../settings')).toBeNull();
    expect(await copies.claim('rec-0000000000000000')).toBeNull();
    // The damaged file is left where it was, for a person to look at.
    expect(await readdir(path.join(home, RECOVERY_FOLDER))).toContain('rec-0000000000000000.json');
  });
});
