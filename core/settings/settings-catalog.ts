import { inject, injectable } from 'inversify';
import { PluginHost } from '../plugins/plugin-host.js';
import { HOST_SETTINGS } from './host-settings.js';
import { declarationProblems, type SettingDeclaration } from './setting-declaration.js';

/** The owner of a group of settings: the host ("General") or one plugin. */
export interface SettingsGroup {
  /** `general` for the host's own, else the plugin id. */
  readonly id: string;
  readonly title: string;
  /** False for a disabled plugin: its settings still apply once it is enabled again. */
  readonly enabled: boolean;
  readonly settings: readonly DeclaredSetting[];
}

export interface DeclaredSetting {
  readonly key: string;
  readonly declaration: SettingDeclaration;
}

/** Where the catalog finds the plugins' declarations (the plugin host, or a test's list). */
export type SettingsSources = Pick<PluginHost, 'declaredSettings'>;

/**
 * Every setting that may be written, by owner: the host's, then each plugin's
 * in load order. A key is owned by its first declarer (the host before any
 * plugin); a later declaration of the same key, or one that is not sound, is
 * left out, so a write is always checked against exactly one declaration.
 */
@injectable()
export class SettingsCatalog {
  constructor(@inject(PluginHost) private readonly plugins: SettingsSources) {}

  groups(): SettingsGroup[] {
    const taken = new Set<string>();
    const group = (
      id: string,
      title: string,
      enabled: boolean,
      declared: Readonly<Record<string, SettingDeclaration>>,
    ): SettingsGroup => {
      const settings: DeclaredSetting[] = [];
      for (const [key, declaration] of Object.entries(declared)) {
        const clash = [...taken].some((t) => t === key || t.startsWith(`${key}.`) || key.startsWith(`${t}.`));
        if (clash || declarationProblems(key, declaration).length > 0) continue;
        taken.add(key);
        settings.push({ key, declaration });
      }
      return { id, title, enabled, settings };
    };
    const general = group('general', 'General', true, HOST_SETTINGS);
    const plugins = this.plugins
      .declaredSettings()
      .map((plugin) => group(plugin.id, plugin.name, plugin.enabled, plugin.settings))
      .filter((g) => g.settings.length > 0);
    return [general, ...plugins];
  }

  find(key: string): SettingDeclaration | undefined {
    for (const group of this.groups()) {
      const found = group.settings.find((s) => s.key === key);
      if (found) return found.declaration;
    }
    return undefined;
  }
}
