import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostOptions } from '../../tokens/host-options.js';
import type { PluginSettings } from '../../plugins/plugin-host.js';
import { SettingsCatalog } from '../../plugins/settings-catalog.js';
import { SettingsStore } from '../../settings/settings-store.js';
import type { PanelMessage } from '../../protocol/panel-protocol.js';
import { UiSettingsService } from './settings-service.js';

const notes: PluginSettings = {
  id: 'notes',
  name: 'Notes',
  settings: {
    'notes.autoSave': {
      type: 'boolean',
      default: true,
      title: 'Save notes',
      description: 'Saves as you type.',
    },
    'notes.style': { type: 'enum', enum: ['plain', 'fancy'], default: 'plain', title: 'Style' },
    'notes.limit': { type: 'integer', default: 1, minimum: 0, maximum: 3, title: 'Limit' },
  },
};
const broken: PluginSettings = {
  id: 'broken',
  name: 'Broken',
  settings: {
    'broken.bad': { type: 'integer', default: 9, maximum: 2, title: 'Bad' },
    // Taken by notes already: left out, so the key has one owner.
    'notes.style': { type: 'boolean', default: true, title: 'Mine' },
  },
};

/** Stands in for the plugin host's change events (the catalog itself asks `declaredSettings`). */
class PluginChanges {
  readonly #listeners = new Set<() => void>();
  onDidChange(listener: () => void) {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }
  fire(): void {
    for (const listener of this.#listeners) listener();
  }
}

let home: string;
let service: UiSettingsService;
let pushed: PanelMessage[];
let declared: PluginSettings[];
let changes: PluginChanges;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-ui-settings-'));
  declared = [notes, broken];
  changes = new PluginChanges();
  const catalog = new SettingsCatalog({ declaredSettings: () => declared });
  service = new UiSettingsService(new SettingsStore({ home } as HostOptions, catalog), catalog, changes);
  pushed = [];
  service.attach((message) => pushed.push(message));
});
afterEach(() => rm(home, { recursive: true, force: true }));

const file = () => path.join(home, 'settings.json');

describe('UiSettingsService', () => {
  it('lists each plugin’s settings, with defaults and current values, after the editor page’s own', async () => {
    await writeFile(file(), JSON.stringify({ notes: { style: 'fancy', limit: 'lots' } }));
    const { file: where, groups } = service.list();
    expect(where).toBe(file());
    // Broken's settings are unsound or taken, so it has no group.
    expect(groups.map((g) => [g.id, g.title])).toEqual([
      ['vmark', 'Editor'],
      ['notes', 'Notes'],
    ]);
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
    await service.set('notes.autoSave', false);
    const after = await service.reset('notes.autoSave');
    expect(after.groups[1]!.settings[0]).toMatchObject({ value: true, stored: 'absent' });
  });

  it('tells every window when plugins change, since their settings come and go with them', async () => {
    declared = [];
    changes.fire();
    expect(pushed).toEqual([{ type: 'settings.changed', settings: service.list() }]);
    expect(service.list().groups.map((g) => g.id)).toEqual(['vmark']);
    // A turned-off plugin's settings cannot be written either; its stored values stay in the file.
    await expect(service.set('notes.limit', 2)).rejects.toThrow('"notes.limit" is not a setting vmark knows');
    service.dispose();
    changes.fire();
    expect(pushed).toHaveLength(1);
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
