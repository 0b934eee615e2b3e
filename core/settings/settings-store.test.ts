import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostOptions } from '../tokens/host-options.js';
import type { SettingDeclaration } from './setting-declaration.js';
import { SettingsStore } from './settings-store.js';

const DECLARED: Record<string, SettingDeclaration> = {
  'integrations.autoApproveEdits': { type: 'boolean', default: false, title: 'Auto-approve edits' },
  'cjkFormatting.quoteStyle': { type: 'enum', enum: ['curly', 'corner'], default: 'curly', title: 'Quotes' },
  'cjkFormatting.limit': { type: 'integer', default: 0, minimum: 0, maximum: 2, title: 'Limit' },
  'notes.signature': { type: 'string', default: '', maxLength: 5, title: 'Signature' },
};

let home: string;
let settings: SettingsStore;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-settings-'));
  settings = new SettingsStore({ home } as HostOptions, { find: (key) => DECLARED[key] });
});
afterEach(() => rm(home, { recursive: true, force: true }));

const file = () => path.join(home, 'settings.json');
const write = (value: unknown) => writeFile(file(), JSON.stringify(value));
const onDisk = async () => JSON.parse(await readFile(file(), 'utf8')) as unknown;

describe('SettingsStore', () => {
  it('falls back to the default when there is no settings file', () => {
    expect(settings.get('integrations.autoApproveEdits', z.boolean(), false)).toBe(false);
  });

  it('reads a dotted key, and sees a change at once', async () => {
    await write({ integrations: { autoApproveEdits: true } });
    expect(settings.get('integrations.autoApproveEdits', z.boolean(), false)).toBe(true);
    await write({ integrations: { autoApproveEdits: false } });
    expect(settings.get('integrations.autoApproveEdits', z.boolean(), false)).toBe(false);
  });

  it('ignores a value of the wrong type and a file that does not parse', async () => {
    await write({ integrations: { autoApproveEdits: 'yes' } });
    expect(settings.get('integrations.autoApproveEdits', z.boolean(), false)).toBe(false);
    await writeFile(file(), '{ not json');
    expect(settings.get('integrations.autoApproveEdits', z.boolean(), true)).toBe(true);
  });

  it('applies the schema, so partial objects get their defaults', async () => {
    await write({ cjkFormatting: { spaceCollapsing: false } });
    const schema = z.object({
      spaceCollapsing: z.boolean().default(true),
      quoteStyle: z.string().default('curly'),
    });
    expect(settings.get('cjkFormatting', schema, { spaceCollapsing: true, quoteStyle: 'curly' })).toEqual({
      spaceCollapsing: false,
      quoteStyle: 'curly',
    });
  });
});

describe('SettingsStore writes', () => {
  it('creates the file with the one value, readable by the person alone', async () => {
    await settings.set('integrations.autoApproveEdits', true);
    expect(await onDisk()).toEqual({ integrations: { autoApproveEdits: true } });
    expect(settings.get('integrations.autoApproveEdits', z.boolean(), false)).toBe(true);
    if (process.platform !== 'win32') expect((await stat(file())).mode & 0o777).toBe(0o600);
  });

  it('keeps every other key, unknown ones and siblings included, and leaves no temp file', async () => {
    const hand = {
      myOwnNote: { keep: [1, 'two', null], nested: { deep: true } },
      cjkFormatting: { spaceCollapsing: false, futureOption: 'x' },
      integrations: { autoApproveEdits: false },
    };
    await write(hand);
    await settings.set('cjkFormatting.quoteStyle', 'corner');
    await settings.set('integrations.autoApproveEdits', true);
    expect(await onDisk()).toEqual({
      myOwnNote: hand.myOwnNote,
      cjkFormatting: { spaceCollapsing: false, futureOption: 'x', quoteStyle: 'corner' },
      integrations: { autoApproveEdits: true },
    });
    expect(await readdir(home)).toEqual(['settings.json']);
  });

  it('keeps the permissions the person gave the file', async () => {
    if (process.platform === 'win32') return;
    await write({});
    await chmod(file(), 0o640);
    await settings.set('cjkFormatting.limit', 2);
    expect((await stat(file())).mode & 0o777).toBe(0o640);
  });

  it.each([
    ['an undeclared key', 'integrations.autoApproveEverything', true, 'is not a setting vmark knows'],
    ['a boolean given a string', 'integrations.autoApproveEdits', 'yes', '"yes" is not true or false'],
    ['an enum given another value', 'cjkFormatting.quoteStyle', 'fancy', 'is not one of "curly", "corner"'],
    ['an integer given a fraction', 'cjkFormatting.limit', 1.5, '1.5 is not a whole number'],
    ['an integer above its maximum', 'cjkFormatting.limit', 3, '3 is above the maximum 2'],
    ['an integer given a string', 'cjkFormatting.limit', '1', '"1" is not a whole number'],
    ['a string that is too long', 'notes.signature', 'abcdefg', 'longer than 5 characters'],
    ['a parent of declared keys', 'cjkFormatting', {}, 'is not a setting vmark knows'],
  ])('refuses %s and changes nothing', async (_, key, value, message) => {
    await write({ mine: 1 });
    const before = await readFile(file(), 'utf8');
    await expect(settings.set(key, value)).rejects.toThrow(message);
    expect(await readFile(file(), 'utf8')).toBe(before);
  });

  it('never overwrites a file that does not parse, or does not hold an object', async () => {
    for (const text of ['{ "integrations": ', '[1, 2]', '"text"']) {
      await writeFile(file(), text);
      await expect(settings.set('integrations.autoApproveEdits', true)).rejects.toMatchObject({
        code: 'READ_ONLY',
      });
      expect(await readFile(file(), 'utf8')).toBe(text);
    }
  });

  it('refuses when a section holds something other than an object', async () => {
    await write({ integrations: 5 });
    await expect(settings.set('integrations.autoApproveEdits', true)).rejects.toThrow(
      /holds 5 at "integrations"/,
    );
    expect(await onDisk()).toEqual({ integrations: 5 });
  });

  it('refuses a settings.json it cannot read (here a folder) and leaves it alone', async () => {
    await mkdir(file());
    await expect(settings.set('integrations.autoApproveEdits', true)).rejects.toThrow(/cannot be read/);
    expect((await stat(file())).isDirectory()).toBe(true);
    expect(await readdir(home)).toEqual(['settings.json']);
  });

  it('lands every one of many concurrent writes, and a refused one does not stop the others', async () => {
    await write({ mine: 'kept' });
    const writes = [
      settings.set('integrations.autoApproveEdits', true),
      settings.set('cjkFormatting.quoteStyle', 'corner'),
      settings.set('cjkFormatting.limit', 7),
      settings.set('cjkFormatting.limit', 1),
      settings.set('notes.signature', 'vm'),
    ];
    const results = await Promise.allSettled(writes);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(await onDisk()).toEqual({
      mine: 'kept',
      integrations: { autoApproveEdits: true },
      cjkFormatting: { quoteStyle: 'corner', limit: 1 },
      notes: { signature: 'vm' },
    });
  });

  it('two stores on one file (two vmark processes) take turns, so neither loses the other’s write', async () => {
    const other = new SettingsStore({ home } as HostOptions, { find: (key) => DECLARED[key] });
    await Promise.all([
      settings.set('integrations.autoApproveEdits', true),
      other.set('notes.signature', 'a'),
      other.set('cjkFormatting.limit', 2),
      settings.set('cjkFormatting.quoteStyle', 'corner'),
    ]);
    expect(await onDisk()).toEqual({
      integrations: { autoApproveEdits: true },
      notes: { signature: 'a' },
      cjkFormatting: { limit: 2, quoteStyle: 'corner' },
    });
    expect(await readdir(home)).toEqual(['settings.json']);
  });

  it('reset removes the key (and a section it leaves empty), so the default applies', async () => {
    await write({ integrations: { autoApproveEdits: true }, cjkFormatting: { quoteStyle: 'corner', x: 1 } });
    await settings.reset('integrations.autoApproveEdits');
    await settings.reset('cjkFormatting.quoteStyle');
    await settings.reset('cjkFormatting.limit');
    expect(await onDisk()).toEqual({ cjkFormatting: { x: 1 } });
    await expect(settings.reset('nope.key')).rejects.toThrow('is not a setting vmark knows');
  });
});
