import { inject, injectable } from 'inversify';
import { PluginHost, type PluginSettings } from './plugin-host.js';
import { declarationProblems, type SettingDeclaration } from '../settings/setting-declaration.js';
import { EDITOR_SETTINGS, EDITOR_SETTINGS_GROUP } from '../protocol/editor-settings.js';

/** The editor page's own settings (ADR 72), first, before any plugin's: no plugin can take their keys. */
const EDITOR_GROUP: PluginSettings = {
  id: EDITOR_SETTINGS_GROUP.id,
  name: EDITOR_SETTINGS_GROUP.title,
  settings: EDITOR_SETTINGS,
};

/** The settings of one plugin, the one that reads them. */
export interface SettingsGroup {
  /** The plugin id. */
  readonly id: string;
  readonly title: string;
  readonly settings: readonly DeclaredSetting[];
}

export interface DeclaredSetting {
  readonly key: string;
  readonly declaration: SettingDeclaration;
}

/** Where the catalog finds the plugins' declarations (the plugin host, or a test's list). */
export type SettingsSources = Pick<PluginHost, 'declaredSettings'>;

/**
 * Every setting that may be written, by the plugin that declares (and reads)
 * it, in load order, after the editor page's own (ADR 72); the host itself
 * reads none (ADR 27). A turned-off plugin's settings are not here: they stay
 * in settings.json and come back with it. A
 * key is owned by its first declarer; a later declaration of the same key, or
 * one that is not sound, is left out, so a write is always checked against
 * exactly one declaration.
 */
@injectable()
export class SettingsCatalog {
  constructor(@inject(PluginHost) private readonly plugins: SettingsSources) {}

  groups(): SettingsGroup[] {
    const taken = new Set<string>();
    const groups: SettingsGroup[] = [];
    for (const plugin of [EDITOR_GROUP, ...this.plugins.declaredSettings()]) {
      const settings: DeclaredSetting[] = [];
      for (const [key, declaration] of Object.entries(plugin.settings)) {
        const clash = [...taken].some((t) => t === key || t.startsWith(`${key}.`) || key.startsWith(`${t}.`));
        if (clash || declarationProblems(key, declaration).length > 0) continue;
        taken.add(key);
        settings.push({ key, declaration });
      }
      if (settings.length > 0) groups.push({ id: plugin.id, title: plugin.name, settings });
    }
    return groups;
  }

  find(key: string): SettingDeclaration | undefined {
    for (const group of this.groups()) {
      const found = group.settings.find((s) => s.key === key);
      if (found) return found.declaration;
    }
    return undefined;
  }
}
