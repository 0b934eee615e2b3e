import type { Disposable } from '@vmark/sdk';
import { describe, expect, it, vi } from 'vitest';
import type { PluginReport } from '../../plugins/plugin-host.js';
import type { PanelMessage } from '../../protocol/panel-protocol.js';
import { type PluginControl, UiPlugins } from './plugin-service.js';

const NEEDS: Record<string, string[]> = { coherence: ['document'], notes: ['coherence'] };

function report(id: string, enabled = true): PluginReport {
  return {
    id,
    name: id.toUpperCase(),
    version: '1.0.0',
    source: 'builtin',
    dir: `/plugins/${id}`,
    enabled,
    active: enabled,
    diagnostics: enabled ? [] : [{ severity: 'warning', message: 'disabled by the user' }],
    tools: [id],
    kinds: id === 'document' ? ['markdown'] : [],
    kindTitles: id === 'document' ? ['Markdown'] : [],
    commands: [],
    panels: [],
    settings: id === 'document' ? ['integrations.autoApproveEdits'] : [],
    dependencies: NEEDS[id] ?? [],
  };
}

/** A plugin host in memory: setEnabled changes the reports and tells the listeners, as reconciliation does. */
function fakeHost(ids = ['document', 'workflow']): PluginControl & { disabled: Set<string> } {
  const disabled = new Set<string>();
  const listeners = new Set<() => void>();
  return {
    disabled,
    reports: () => ids.map((id) => report(id, !disabled.has(id))),
    setEnabled: vi.fn((id: string, enabled: boolean) => {
      if (enabled) disabled.delete(id);
      else disabled.add(id);
      for (const listener of listeners) listener();
      return Promise.resolve();
    }),
    onDidChange: (listener: () => void): Disposable => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
  };
}

describe('UiPlugins', () => {
  it('lists the plugins without their folders on disk', () => {
    const plugins = new UiPlugins(fakeHost());
    expect(plugins.list()).toEqual([
      {
        id: 'document',
        name: 'DOCUMENT',
        version: '1.0.0',
        source: 'builtin',
        enabled: true,
        active: true,
        diagnostics: [],
        tools: ['document'],
        kinds: ['Markdown'],
        commands: [],
        panels: [],
        settings: ['integrations.autoApproveEdits'],
        dependents: [],
      },
      expect.objectContaining({ id: 'workflow' }),
    ]);
  });

  it('names the enabled plugins that stop with one, those that need it through others included', () => {
    const host = fakeHost(['coherence', 'document', 'notes', 'workflow']);
    const dependents = () => new UiPlugins(host).list().map((p) => [p.id, p.dependents]);
    expect(dependents()).toEqual([
      ['coherence', ['NOTES']],
      ['document', ['COHERENCE', 'NOTES']],
      ['notes', []],
      ['workflow', []],
    ]);
    // One already off stops nothing more, and needs nothing through it.
    host.disabled.add('coherence');
    expect(dependents()).toEqual([
      ['coherence', ['NOTES']],
      ['document', []],
      ['notes', []],
      ['workflow', []],
    ]);
  });

  it('enables and disables, and tells every attached window after each change', async () => {
    const host = fakeHost();
    const plugins = new UiPlugins(host);
    const heard: PanelMessage[] = [];
    const window = plugins.attach((m) => heard.push(m));
    const after = await plugins.setEnabled('workflow', false);
    expect(after.find((p) => p.id === 'workflow')).toMatchObject({ enabled: false, active: false });
    expect(heard).toEqual([{ type: 'plugins.changed', plugins: after }]);
    window.dispose();
    await plugins.setEnabled('workflow', true);
    expect(heard).toHaveLength(1);
  });

  it('refuses an unknown id without touching the enabled state', async () => {
    const host = fakeHost();
    const plugins = new UiPlugins(host);
    await expect(plugins.setEnabled('no-such', false)).rejects.toThrow('No plugin has the id "no-such"');
    expect(host.setEnabled).not.toHaveBeenCalled();
  });

  it('stops listening to the plugin host when disposed', async () => {
    const host = fakeHost();
    const plugins = new UiPlugins(host);
    const heard: PanelMessage[] = [];
    plugins.attach((m) => heard.push(m));
    plugins.dispose();
    await host.setEnabled('workflow', false);
    expect(heard).toEqual([]);
  });
});
