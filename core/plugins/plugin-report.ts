/** What the host shows of its plugins: the plugin manager's and `vmark plugins list`'s rows, and the settings they declare. */
import type { SettingDeclaration } from '../settings/setting-declaration.js';
import { type Diagnostic, hasErrors } from './diagnostics.js';
import type { PluginSource } from './discovery.js';
import type { PanelContribution } from './manifest.js';
import { type PluginEntry, pluginIdOf } from './plugin-entry.js';

/** What the plugin manager and `vmark plugins list` show for one plugin. */
export interface PluginReport {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly source: PluginSource;
  readonly dir: string | null;
  readonly enabled: boolean;
  readonly active: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly tools: readonly string[];
  readonly kinds: readonly string[];
  /** The kinds' titles, in the order of `kinds` (a kind without a title shows its id). */
  readonly kindTitles: readonly string[];
  readonly commands: readonly string[];
  readonly panels: readonly string[];
  /** The keys of the settings it declares. */
  readonly settings: readonly string[];
  /** The ids of the plugins it needs (its manifest's `dependencies`). */
  readonly dependencies: readonly string[];
}

/** One enabled plugin's `contributes.settings`, as the settings catalog reads them. */
export interface PluginSettings {
  readonly id: string;
  readonly name: string;
  readonly settings: Readonly<Record<string, SettingDeclaration>>;
}

/** A panel of an active plugin that ships from a folder, for the UI server and the renderer. */
export interface ActivePanel {
  readonly pluginId: string;
  /** The plugin folder, whose `ui/` the panel's module is served from. */
  readonly dir: string;
  readonly panel: PanelContribution;
}

/** `entry`'s row; a plugin whose manifest could not be read shows what it says of itself. */
export function pluginReport(
  entry: PluginEntry,
  status: Pick<PluginReport, 'enabled' | 'active' | 'diagnostics'>,
): PluginReport {
  const raw = (entry.candidate.raw ?? {}) as Partial<Record<'id' | 'name' | 'version', unknown>>;
  const manifest = entry.manifest;
  const id = pluginIdOf(entry);
  return {
    id,
    name: manifest?.name ?? (typeof raw.name === 'string' ? raw.name : id),
    version: manifest?.version ?? (typeof raw.version === 'string' ? raw.version : '0.0.0'),
    source: entry.candidate.source,
    dir: entry.candidate.dir,
    // Spelled out, so the row's keys keep their order (`vmark plugins list --json`).
    enabled: status.enabled,
    active: status.active,
    diagnostics: status.diagnostics,
    tools: manifest?.contributes?.tools?.map((t) => t.name) ?? [],
    kinds: manifest?.contributes?.kinds?.map((k) => k.id) ?? [],
    kindTitles: manifest?.contributes?.kinds?.map((k) => k.title ?? k.id) ?? [],
    commands: manifest?.contributes?.commands?.map((c) => c.name) ?? [],
    panels: manifest?.contributes?.panels?.map((p) => p.id) ?? [],
    settings: Object.keys(manifest?.contributes?.settings ?? {}),
    dependencies: Object.keys(manifest?.dependencies ?? {}),
  };
}

/**
 * The settings each enabled plugin with a valid manifest declares, running or not (one that
 * failed to start still shows its settings, which may be why). A turned-off plugin reads none.
 */
export function declaredSettings(
  entries: readonly PluginEntry[],
  disabled: readonly string[],
): PluginSettings[] {
  return entries.flatMap(({ manifest, diagnostics }) =>
    manifest && !hasErrors(diagnostics) && !disabled.includes(manifest.id)
      ? [{ id: manifest.id, name: manifest.name, settings: manifest.contributes?.settings ?? {} }]
      : [],
  );
}
