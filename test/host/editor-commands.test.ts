/**
 * Editor commands through a real host (ADR 61): plugins' `contributes.editorCommands` with the
 * handlers they register, listed with the editor's own beside the person's keybindings.json by
 * the UI server's command service, and the bad inputs — an undeclared or repeated id, a handler
 * never registered, unknown ids and malformed keys in the file — said plainly, never a crash.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { definePlugin, HOST_API_VERSION, type PluginContext } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../core/composition/host.js';
import type { PluginCandidate } from '../../core/plugins/discovery.js';
import { KeybindingsStore } from '../../core/settings/keybindings-store.js';
import { UiCommandService } from '../../core/shell/server/command-service.js';

let home: string;
let host: Host | undefined;
let service: UiCommandService | undefined;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-editor-commands-'));
});
afterEach(async () => {
  service?.dispose();
  service = undefined;
  await host?.dispose();
  host = undefined;
  await rm(home, { recursive: true, force: true });
});

const file = () => path.join(home, 'keybindings.json');

function plugin(
  id: string,
  editorCommands: readonly Record<string, unknown>[],
  activate: (context: PluginContext) => void,
): PluginCandidate {
  const raw = {
    id,
    name: `The ${id} plugin`,
    version: '1.0.0',
    engines: { host: `^${HOST_API_VERSION}` },
    main: 'index.js',
    contributes: { editorCommands },
  };
  return { source: 'builtin', dir: null, raw, load: () => Promise.resolve(definePlugin({ activate })) };
}

/** A plugin with a stamp command on Mod+Shift+S and a quiet one with no key. */
const notes = plugin(
  'notes',
  [
    { id: 'notes.stamp', title: 'Stamp the note', key: 'Mod+Shift+S', mac: 'Cmd+Alt+S', when: 'editorFocus' },
    { id: 'notes.tidy', title: 'Tidy', category: 'Notes' },
  ],
  (context) => {
    context.registerEditorCommand('notes.stamp', ({ tabId }) => `stamped ${tabId ?? 'nothing'}`);
    context.registerEditorCommand('notes.tidy', () => undefined);
  },
);

async function start(...candidates: PluginCandidate[]): Promise<UiCommandService> {
  host = await createHost({ home, userPlugins: false, extraPlugins: candidates });
  service = new UiCommandService(host.plugins, new KeybindingsStore(file()));
  return service;
}

const report = (id: string) => host!.plugins.reports().find((r) => r.id === id)!;
const messages = (id: string) => report(id).diagnostics.map((d) => `${d.severity}: ${d.message}`);

describe('the commands listed for the page', () => {
  it('has the editor’s own first, then the plugin’s, each with its key on the page’s platform', async () => {
    const commands = await start(notes);
    const { commands: listed, conflicts, problems, file: where } = await commands.list('other');
    expect(where).toBe(file());
    expect(listed[0]).toMatchObject({ id: 'vmark.commandPalette', key: 'Ctrl+Shift+P', runsIn: 'page' });
    expect(listed.filter((c) => c.pluginId === 'notes')).toEqual([
      {
        id: 'notes.stamp',
        title: 'Stamp the note',
        category: 'The notes plugin',
        pluginId: 'notes',
        runsIn: 'host',
        key: 'Ctrl+Shift+S',
        defaultKey: 'Ctrl+Shift+S',
        changed: false,
        when: 'editorFocus',
      },
      expect.objectContaining({ id: 'notes.tidy', category: 'Notes', key: null }),
    ]);
    expect(conflicts).toEqual([]);
    expect(problems).toEqual([]);
    const mac = await commands.list('mac');
    expect(mac.commands.find((c) => c.id === 'notes.stamp')?.key).toBe('Alt+Meta+S');
    expect(mac.commands.find((c) => c.id === 'vmark.save')?.key).toBe('Meta+S');
  });

  it('runs the plugin’s command with the tab it was run on', async () => {
    const commands = await start(notes);
    expect(await commands.run('notes.stamp', { windowLabel: 'main', tabId: 'tab-9' })).toEqual({
      note: 'stamped tab-9',
    });
    expect(await commands.run('notes.tidy', { windowLabel: 'main', tabId: null })).toEqual({ note: null });
    await expect(commands.run('vmark.save', { windowLabel: 'main', tabId: null })).rejects.toThrow(
      'No running plugin has an editor command "vmark.save"',
    );
  });

  it('loses a turned-off plugin’s commands and tells the windows', async () => {
    const commands = await start(notes);
    let told = 0;
    commands.attach(() => told++);
    await host!.plugins.setEnabled('notes', false);
    expect(told).toBeGreaterThan(0);
    expect((await commands.list('other')).commands.some((c) => c.pluginId === 'notes')).toBe(false);
    await expect(commands.run('notes.stamp', { windowLabel: 'main', tabId: null })).rejects.toThrow(
      'No running plugin',
    );
  });
});

describe('the person’s keys', () => {
  it('rebinds, unbinds and resets through keybindings.json, a key shared by two shown as a conflict', async () => {
    const commands = await start(notes);
    let list = await commands.set('notes.stamp', 'ctrl+alt+k', 'other');
    expect(list.commands.find((c) => c.id === 'notes.stamp')).toMatchObject({
      key: 'Ctrl+Alt+K',
      changed: true,
    });
    list = await commands.set('notes.tidy', 'Mod+S', 'other');
    expect(list.conflicts).toEqual([{ key: 'Ctrl+S', commandIds: ['vmark.save', 'notes.tidy'] }]);
    list = await commands.set('vmark.save', null, 'other');
    expect(list.conflicts).toEqual([]);
    expect(list.commands.find((c) => c.id === 'vmark.save')).toMatchObject({
      key: null,
      defaultKey: 'Ctrl+S',
    });
    expect(JSON.parse(await readFile(file(), 'utf8'))).toEqual({
      version: 1,
      keys: { 'notes.stamp': 'Ctrl+Alt+K', 'notes.tidy': 'Ctrl+S', 'vmark.save': null },
    });
    list = await commands.reset('vmark.save', 'other');
    expect(list.commands.find((c) => c.id === 'vmark.save')).toMatchObject({ key: 'Ctrl+S', changed: false });
  });

  it('refuses an unknown command and a malformed key, writing nothing', async () => {
    const commands = await start(notes);
    await expect(commands.set('notes.missing', 'Ctrl+K', 'other')).rejects.toThrow(
      'There is no command "notes.missing" to give a key to',
    );
    await expect(commands.set('notes.stamp', 'Ctrl+Hyper+K', 'other')).rejects.toThrow(
      '"Hyper" in "Ctrl+Hyper+K" is not a modifier',
    );
    await expect(readFile(file(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps an unknown id in the file unused, and a malformed key keeps the default, said', async () => {
    const text = JSON.stringify({ version: 1, keys: { 'gone.away': 'Ctrl+G', 'notes.stamp': 'Ctrl+' } });
    await writeFile(file(), text);
    const commands = await start(notes);
    const list = await commands.list('other');
    expect(list.commands.find((c) => c.id === 'notes.stamp')?.key).toBe('Ctrl+Shift+S');
    expect(list.problems).toEqual([
      'the key of "notes.stamp": "" in "Ctrl+" is not a key; its default is used',
    ]);
    await commands.set('notes.tidy', 'Ctrl+T', 'other');
    expect((JSON.parse(await readFile(file(), 'utf8')) as { keys: unknown }).keys).toEqual({
      'gone.away': 'Ctrl+G',
      'notes.stamp': 'Ctrl+',
      'notes.tidy': 'Ctrl+T',
    });
  });

  it('names a file that is not usable, keeps the defaults, and refuses to write over it', async () => {
    await writeFile(file(), '[1, 2]');
    const commands = await start(notes);
    const list = await commands.list('other');
    expect(list.problems).toEqual([
      `${file()} is not a JSON object; the default keys are used until it is fixed`,
    ]);
    expect(list.commands.find((c) => c.id === 'notes.stamp')?.key).toBe('Ctrl+Shift+S');
    await expect(commands.set('notes.stamp', 'Ctrl+K', 'other')).rejects.toMatchObject({ code: 'READ_ONLY' });
    expect(await readFile(file(), 'utf8')).toBe('[1, 2]');
  });
});

describe('a plugin’s commands that do not add up', () => {
  it('fails the activation of a handler its manifest does not declare, and the host goes on', async () => {
    const commands = await start(
      notes,
      plugin('rogue', [], (context) => context.registerEditorCommand('rogue.sneak', () => 'x')),
    );
    expect(report('rogue').active).toBe(false);
    expect(messages('rogue')).toContainEqual(
      'error: activation failed: plugin "rogue" handles editor command "rogue.sneak" that its manifest\'s contributes.editorCommands does not declare',
    );
    expect(report('notes').active).toBe(true);
    expect((await commands.list('other')).commands.some((c) => c.id === 'rogue.sneak')).toBe(false);
  });

  it('refuses a manifest that contributes one id twice, or another plugin’s id, before its code runs', async () => {
    let ran = false;
    await start(
      plugin(
        'twice',
        [
          { id: 'twice.go', title: 'Go' },
          { id: 'twice.go', title: 'Go again' },
          { id: 'notes.stamp', title: 'Not mine' },
        ],
        () => {
          ran = true;
        },
      ),
    );
    expect(ran).toBe(false);
    expect(messages('twice')).toEqual(
      expect.arrayContaining([
        'error: editor command "twice.go" is contributed twice',
        'error: editor command "notes.stamp" must be named "twice.<name>" (letters, digits, . and -)',
      ]),
    );
  });

  it('warns of a declared command it never handles, and lists it not', async () => {
    const commands = await start(plugin('lazy', [{ id: 'lazy.later', title: 'Later' }], () => undefined));
    expect(report('lazy').active).toBe(true);
    expect(messages('lazy')).toContain('warning: declares editor command "lazy.later" but did not handle it');
    expect((await commands.list('other')).commands.some((c) => c.id === 'lazy.later')).toBe(false);
  });

  it('refuses a second handler for one id as a failed activation', async () => {
    await start(
      plugin('double', [{ id: 'double.go', title: 'Go' }], (context) => {
        context.registerEditorCommand('double.go', () => 'one');
        context.registerEditorCommand('double.go', () => 'two');
      }),
    );
    expect(messages('double')).toContainEqual(
      'error: activation failed: editor command "double.go" already has a handler (plugin "double")',
    );
  });
});

describe('commands that run in the page (ADR 72)', () => {
  const pageCommand = { id: 'marks.bold', title: 'Bold', key: 'Mod+B', runsIn: 'page' };

  it('lists a runsIn: page command while its plugin runs, with no host handler and no warning', async () => {
    const commands = await start(plugin('marks', [pageCommand], () => undefined));
    expect(report('marks').active).toBe(true);
    expect(messages('marks')).toEqual([]);
    const listed = (await commands.list('other')).commands.find((c) => c.id === 'marks.bold');
    expect(listed).toMatchObject({ pluginId: 'marks', runsIn: 'page', key: 'Ctrl+B' });
    // The host has nothing to run for it: the page's view does.
    await expect(commands.run('marks.bold', { windowLabel: 'main', tabId: null })).rejects.toThrow(
      'runs in the editor page',
    );
    await host!.plugins.setEnabled('marks', false);
    expect((await commands.list('other')).commands.some((c) => c.id === 'marks.bold')).toBe(false);
  });

  it('fails the activation of a host handler for a runsIn: page command', async () => {
    await start(
      plugin('marks', [pageCommand], (context) => {
        context.registerEditorCommand('marks.bold', () => 'in the host');
      }),
    );
    expect(report('marks').active).toBe(false);
    expect(messages('marks')).toContainEqual(
      'error: activation failed: editor command "marks.bold" runs in the page (its text view handles it), not in the host',
    );
  });

  it('refuses a runsIn that is neither host nor page', async () => {
    let ran = false;
    await start(
      plugin('marks', [{ ...pageCommand, runsIn: 'everywhere' }], () => {
        ran = true;
      }),
    );
    expect(ran).toBe(false);
    expect(report('marks').active).toBe(false);
  });
});
