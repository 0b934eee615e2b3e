import type { Disposable } from '@vmark/sdk';
import { ArgumentError, toDisposable } from '@vmark/sdk';
import type { PluginHost, PluginReport } from '../../plugins/plugin-host.js';
import type { PanelMessage, UiPlugin } from '../../protocol/panel-protocol.js';

/** What the plugin manager needs of the plugin host. */
export type PluginControl = Pick<PluginHost, 'reports' | 'setEnabled' | 'onDidChange'>;

/**
 * The plugin manager's side in the host: lists the plugins, enables and disables
 * them live (the MCP sessions' tool lists follow, with `tools/list_changed`),
 * and tells every window after each change, whoever made it (`vmark plugins`
 * in a terminal included: the host watches the state file).
 */
export class UiPlugins implements Disposable {
  readonly #sinks = new Set<(message: PanelMessage) => void>();
  readonly #subscription: Disposable;

  constructor(private readonly plugins: PluginControl) {
    this.#subscription = plugins.onDidChange(() => {
      const message: PanelMessage = { type: 'plugins.changed', plugins: this.list() };
      for (const sink of [...this.#sinks]) sink(message);
    });
  }

  attach(sink: (message: PanelMessage) => void): Disposable {
    this.#sinks.add(sink);
    return toDisposable(() => this.#sinks.delete(sink));
  }

  list(): UiPlugin[] {
    const reports = this.plugins.reports();
    return reports.map((report) => uiPlugin(report, dependentsOf(report.id, reports)));
  }

  /** @throws ArgumentError for an id no plugin has; the enabled state on disk is left alone then. */
  async setEnabled(id: string, enabled: boolean): Promise<UiPlugin[]> {
    if (!this.plugins.reports().some((plugin) => plugin.id === id)) {
      throw new ArgumentError(`No plugin has the id ${JSON.stringify(id)}`);
    }
    await this.plugins.setEnabled(id, enabled);
    return this.list();
  }

  dispose(): void {
    this.#sinks.clear();
    this.#subscription.dispose();
  }
}

/** The names of the enabled plugins that need `id`, directly or through others, in list order. */
function dependentsOf(id: string, reports: readonly PluginReport[]): string[] {
  const needing = new Set<string>([id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const report of reports) {
      if (!report.enabled || needing.has(report.id)) continue;
      if (report.dependencies.some((d) => needing.has(d))) {
        needing.add(report.id);
        grew = true;
      }
    }
  }
  return reports.filter((r) => r.id !== id && needing.has(r.id)).map((r) => r.name);
}

function uiPlugin(report: PluginReport, dependents: readonly string[]): UiPlugin {
  return {
    id: report.id,
    name: report.name,
    version: report.version,
    source: report.source,
    enabled: report.enabled,
    active: report.active,
    diagnostics: report.diagnostics.map(({ severity, message }) => ({ severity, message })),
    tools: report.tools,
    kinds: report.kindTitles,
    commands: report.commands,
    panels: report.panels,
    settings: report.settings,
    dependents,
  };
}
