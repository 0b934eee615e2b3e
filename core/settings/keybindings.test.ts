import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keybindingsPath, loadKeyOverrides, saveKeyOverrides } from './keybindings-file.js';
import { resolveKeys } from './keybindings.js';

const defaults = [
  { commandId: 'workbench.save', key: 'Mod+S' },
  { commandId: 'workbench.palette', key: 'Mod+Shift+P' },
  { commandId: 'workbench.quickOpen', key: 'Ctrl+P', mac: 'Cmd+P' },
  { commandId: 'outline.toggle' },
];

describe('resolveKeys', () => {
  it('takes each default, per platform', () => {
    expect([...resolveKeys(defaults, {}, 'other').keys]).toEqual([
      ['workbench.save', 'Ctrl+S'],
      ['workbench.palette', 'Ctrl+Shift+P'],
      ['workbench.quickOpen', 'Ctrl+P'],
    ]);
    expect(resolveKeys(defaults, {}, 'mac').keys.get('workbench.quickOpen')).toBe('Meta+P');
  });

  it('lets an override replace a default, unbind it, or bind a command that had none', () => {
    const { keys } = resolveKeys(
      defaults,
      { 'workbench.save': 'Alt+S', 'workbench.palette': null, 'outline.toggle': 'ctrl+shift+o' },
      'other',
    );
    expect(keys.get('workbench.save')).toBe('Alt+S');
    expect(keys.has('workbench.palette')).toBe(false);
    expect(keys.get('outline.toggle')).toBe('Ctrl+Shift+O');
  });

  it('shows two commands on one key as a conflict', () => {
    const { conflicts } = resolveKeys(defaults, { 'outline.toggle': 'Mod+S' }, 'other');
    expect([...conflicts]).toEqual([['Ctrl+S', ['workbench.save', 'outline.toggle']]]);
  });

  it('keeps the default of a bad override and says why', () => {
    const { keys, problems } = resolveKeys(defaults, { 'workbench.save': 'Hyper+S' }, 'other');
    expect(keys.get('workbench.save')).toBe('Ctrl+S');
    expect(problems).toEqual([expect.stringMatching(/"workbench\.save".*"Hyper".*default is used/)]);
  });

  it('passes over an override of a command no plugin contributes now', () => {
    const { keys, problems } = resolveKeys(defaults, { 'gone.command': 'Ctrl+G' }, 'other');
    expect(keys.has('gone.command')).toBe(false);
    expect(problems).toEqual([]);
  });
});

describe('the keybindings file', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'vmark-keys-'));
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('is none when missing, and reads back what was saved, leaving no temp file', async () => {
    const file = keybindingsPath(home);
    expect(await loadKeyOverrides(file)).toEqual({ overrides: {} });
    await saveKeyOverrides(file, { 'workbench.save': 'Alt+S', 'outline.toggle': null });
    expect(await loadKeyOverrides(file)).toEqual({
      overrides: { 'outline.toggle': null, 'workbench.save': 'Alt+S' },
    });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      version: 1,
      keys: { 'outline.toggle': null, 'workbench.save': 'Alt+S' },
    });
    expect(await readdir(home)).toEqual(['keybindings.json']);
  });

  it.each([
    ['{ not json', /is not JSON/],
    ['[1, 2]', /is not a JSON object/],
    ['{"version": 2, "keys": {}}', /version 2.*version 1/],
    ['{"version": 1}', /no "keys" object/],
    ['{"version": 1, "keys": {"workbench.save": 5}}', /"workbench\.save" 5/],
  ])('refuses %s with a clear message, the defaults kept and the file untouched', async (text, why) => {
    const file = keybindingsPath(home);
    await writeFile(file, text);
    const loaded = await loadKeyOverrides(file);
    expect(loaded.overrides).toEqual({});
    expect(loaded.problem).toMatch(why);
    expect(loaded.problem).toMatch(/default keys are used/);
    expect(await readFile(file, 'utf8')).toBe(text);
  });
});
