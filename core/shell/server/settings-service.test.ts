import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostOptions } from '../../host-options.js';
import type { PluginSettings } from '../../plugins/plugin-host.js';
import { SettingsCatalog } from '../../settings/settings-catalog.js';
import { SettingsStore } from '../../settings/settings-store.js';
import type { PanelMessage } from '../panel-protocol.js';
import { UiSettingsService } from './settings-service.js';

const notes: PluginSettings = {
  id: 'notes',
  name: 'Notes',
  enabled: false,
  settings: {
    'notes.autoSave': {
      type: 'boolean',
      default: true,
      title: 'Save notes',
      description: 'Saves as you type.',
    },
    'notes.style': { type: 'enum', enum: ['plain', 'fancy'], default: 'plain', title: 'Style' },
    'notes.limit': { type: 'integer', default: 1, minimum: 0, maximum: 3, title: 'Limit' },
    // Taken by the host already: left out, so the key has one owner.
    'browser.allowPrivateNetwork': { type: 'boolean', default: true, title: 'Mine' },
  },
};
const broken: PluginSettings = {
  id: 'broken',
  name: 'Broken',
  enabled: true,
  settings: { 'broken.bad': { type: 'integer', default: 9, maximum: 2, title: 'Bad' } },
};

let home: string;
let service: UiSettingsService;
let pushed: PanelMessage[];
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-ui-settings-'));
  const catalog = new SettingsCatalog({ declaredSettings: () => [notes, broken] });
  service = new UiSettingsService(new SettingsStore({ home } as HostOptions, catalog), catalog);
  pushed = [];
  service.attach((message) => pushed.push(message));
});
afterEach(() => rm(home, { recursive: true, force: true }));

const file = () => path.join(home, 'settings.json');

describe('UiSettingsService', () => {
  it('lists the host’s settings under General, then each plugin’s, with defaults and current values', async () => {
    await writeFile(file(), JSON.stringify({ notes: { style: 'fancy', limit: 'lots' } }));
    const { file: where, groups } = service.list();
    expect(where).toBe(file());
    expect(groups.map((g) => [g.id, g.title, g.enabled])).toEqual([
      ['general', 'General', true],
      ['notes', 'Notes', false],
    ]);
    expect(groups[0]!.settings).toMatchObject([
      { key: 'browser.allowPrivateNetwork', type: 'boolean', default: false, value: false, stored: 'absent' },
    ]);
    expect(groups[0]!.settings[0]!.caution).toBeTruthy();
    expect(groups[1]!.settings).toEqual([
      {
        key: 'notes.autoSave',
        type: 'boolean',
        title: 'Save notes',
        description: 'Saves as you type.',
        default: true,
        value: true,
        stored: 'absent',
      },
      {
        key: 'notes.style',
        type: 'enum',
        title: 'Style',
        enum: ['plain', 'fancy'],
        default: 'plain',
        value: 'fancy',
        stored: 'valid',
      },
      // A value that does not fit is ignored: the default applies, and the panel says so.
      {
        key: 'notes.limit',
        type: 'integer',
        title: 'Limit',
        default: 1,
        value: 1,
        stored: 'invalid',
        minimum: 0,
        maximum: 3,
      },
    ]);
  });

  it('writes a setting, answers with the new list and tells every window', async () => {
    const after = await service.set('notes.limit', 3);
    expect(after.groups[1]!.settings.find((s) => s.key === 'notes.limit')).toMatchObject({
      value: 3,
      stored: 'valid',
    });
    expect(pushed).toEqual([{ type: 'settings.changed', settings: after }]);
    expect(JSON.parse(await readFile(file(), 'utf8'))).toEqual({ notes: { limit: 3 } });
  });

  it('reset puts the default back', async () => {
    await service.set('browser.allowPrivateNetwork', true);
    const after = await service.reset('browser.allowPrivateNetwork');
    expect(after.groups[0]!.settings[0]).toMatchObject({ value: false, stored: 'absent' });
  });

  it.each([
    ['an unknown key', 'notes.colour', 'red'],
    ['a key another owner holds', 'broken.bad', 1],
    ['a wrong type', 'notes.autoSave', 'yes'],
    ['a value out of bounds', 'notes.limit', 4],
  ])('refuses %s, writes nothing and tells no one', async (_label, key, value) => {
    await expect(service.set(key, value)).rejects.toThrow();
    await expect(readFile(file(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(pushed).toEqual([]);
  });

  it('stops telling a window that went away', async () => {
    const other: PanelMessage[] = [];
    const attached = service.attach((m) => other.push(m));
    attached.dispose();
    await service.set('notes.autoSave', false);
    expect(other).toEqual([]);
    expect(pushed).toHaveLength(1);
  });
});
