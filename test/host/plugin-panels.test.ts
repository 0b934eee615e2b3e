import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../core/composition/host.js';
import type { PanelRefresh } from '../../core/plugins/panel-registry.js';

/*
 * `context.registerPanel` against a real host: plain-ESM plugins written to a
 * temporary built-in root, each declaring (or not) the panel it registers.
 */

let scratch: string;
let root: string;
const hosts: Host[] = [];

beforeEach(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'vmark-plugin-panels-'));
  root = path.join(scratch, 'builtin');
});
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
  delete (globalThis as { __vmarkPanelRefresh?: unknown }).__vmarkPanelRefresh;
  await rm(scratch, { recursive: true, force: true });
});

/** A plugin declaring `declared` panels and registering a provider for `registers`, if given. */
async function plugin(id: string, declared: readonly string[], registers?: string): Promise<string> {
  const dir = path.join(root, id);
  await mkdir(dir, { recursive: true });
  const manifest = {
    id,
    name: `Plugin ${id}`,
    version: '1.0.0',
    engines: { host: '^1.0.0' },
    main: 'main.js',
    contributes: { panels: declared.map((p) => ({ id: p, title: `Panel ${p}`, slot: 'right' })) },
  };
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  const provider =
    registers === undefined
      ? ''
      : `const panel = ctx.registerPanel({
          id: ${JSON.stringify(registers)},
          load: (params) => ({ from: ${JSON.stringify(id)}, params }),
          actions: { ping: () => 'pong' },
        });
        globalThis.__vmarkPanelRefresh = () => panel.refresh();`;
  await writeFile(
    path.join(dir, 'main.js'),
    `export default { [Symbol.for('vmark.plugin')]: true, activate(ctx) { ${provider} } };`,
  );
  return dir;
}

async function start(): Promise<Host> {
  const host = await createHost({ home: path.join(scratch, 'home'), builtinPluginDirs: [root] });
  hosts.push(host);
  return host;
}

const refreshOf = () => (globalThis as { __vmarkPanelRefresh?: () => void }).__vmarkPanelRefresh!;

describe('plugin panels', () => {
  it('lists an active plugin’s declared panels with its folder, and routes requests to its provider', async () => {
    const dir = await plugin('notes', ['outline'], 'outline');
    const host = await start();
    expect(host.plugins.activePanels()).toEqual([
      { pluginId: 'notes', dir, panel: { id: 'outline', title: 'Panel outline', slot: 'right' } },
    ]);
    const panels = host.plugins.panels;
    expect(await panels.request('notes', 'outline', 'load', { q: 1 })).toEqual({
      from: 'notes',
      params: { q: 1 },
    });
    expect(await panels.request('notes', 'outline', 'ping', undefined)).toBe('pong');
  });

  it('refuses requests for another plugin’s panel, an unknown panel, or a request the provider lacks', async () => {
    await plugin('notes', ['outline'], 'outline');
    await plugin('other', ['outline'], 'outline');
    const host = await start();
    const panels = host.plugins.panels;
    expect(await panels.request('other', 'outline', 'load', null)).toMatchObject({ from: 'other' });
    await expect(panels.request('nobody', 'outline', 'load', null)).rejects.toThrow(
      'Plugin "nobody" has no active panel "outline"',
    );
    await expect(panels.request('notes', 'missing', 'load', null)).rejects.toThrow(/no active panel/);
    for (const method of ['resolve', 'toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      await expect(panels.request('notes', 'outline', method, null)).rejects.toThrow(
        `Panel "notes/outline" has no request "${method}"`,
      );
    }
  });

  it('fails the activation of a plugin registering a panel its manifest does not declare', async () => {
    await plugin('sneaky', [], 'hidden');
    const host = await start();
    const report = host.plugins.reports().find((r) => r.id === 'sneaky')!;
    expect(report.active).toBe(false);
    expect(report.diagnostics.map((d) => d.message)).toContain(
      'activation failed: plugin "sneaky" registers panel "hidden" that its manifest does not declare',
    );
    expect(host.plugins.panels.has('sneaky', 'hidden')).toBe(false);
  });

  it('tells refresh listeners, and disabling the plugin removes its panel and silences its refreshes', async () => {
    await plugin('notes', ['outline'], 'outline');
    const host = await start();
    const refreshes: PanelRefresh[] = [];
    const listening = host.plugins.panels.onRefresh((r) => refreshes.push(r));
    refreshOf()();
    expect(refreshes).toEqual([{ pluginId: 'notes', panelId: 'outline' }]);

    await host.plugins.setEnabled('notes', false);
    expect(host.plugins.activePanels()).toEqual([]);
    await expect(host.plugins.panels.request('notes', 'outline', 'load', null)).rejects.toThrow(
      /no active panel/,
    );
    refreshOf()();
    expect(refreshes).toHaveLength(1);

    await host.plugins.setEnabled('notes', true);
    expect(host.plugins.activePanels().map((p) => p.panel.id)).toEqual(['outline']);
    listening.dispose();
    refreshOf()();
    expect(refreshes).toHaveLength(1);
  });

  it('lists a declared panel without a provider, and refuses its requests', async () => {
    await plugin('static', ['about']);
    const host = await start();
    expect(host.plugins.activePanels().map((p) => `${p.pluginId}/${p.panel.id}`)).toEqual(['static/about']);
    await expect(host.plugins.panels.request('static', 'about', 'load', null)).rejects.toThrow(
      /no active panel/,
    );
  });
});
