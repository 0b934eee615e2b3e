import type { Disposable } from '@vmark/sdk';
import { toDisposable } from '@vmark/sdk';
import type { PluginHost } from '../../plugins/plugin-host.js';
import type { SettingsCatalog } from '../../plugins/settings-catalog.js';
import { type SettingDeclaration, valueProblem } from '../../settings/setting-declaration.js';
import type { SettingsStore } from '../../settings/settings-store.js';
import type { PanelMessage, UiSetting, UiSettings, UiSettingValue } from '../../protocol/panel-protocol.js';

/** What the settings panel needs of the store: read the file, write it, and say where it is. */
export type SettingsAccess = Pick<SettingsStore, 'raw' | 'set' | 'reset' | 'file'>;

/**
 * The settings panel's side in the host: every declared setting by the plugin
 * that reads it, with the value that applies now, and writes through the
 * store's checked path. After a write, and after plugins are turned on or off
 * (their settings come and go with them), every window is told, so two windows
 * never disagree. A running host reads settings on every call, so the change
 * applies to the next one.
 */
export class UiSettingsService implements Disposable {
  readonly #sinks = new Set<(message: PanelMessage) => void>();
  readonly #subscription: Disposable | undefined;

  constructor(
    private readonly store: SettingsAccess,
    private readonly catalog: Pick<SettingsCatalog, 'groups'>,
    plugins?: Pick<PluginHost, 'onDidChange'>,
  ) {
    this.#subscription = plugins?.onDidChange(() => this.#changed());
  }

  attach(sink: (message: PanelMessage) => void): Disposable {
    this.#sinks.add(sink);
    return toDisposable(() => this.#sinks.delete(sink));
  }

  list(): UiSettings {
    return {
      file: this.store.file,
      groups: this.catalog.groups().map((group) => ({
        id: group.id,
        title: group.title,
        settings: group.settings.map(({ key, declaration }) => this.#setting(key, declaration)),
      })),
    };
  }

  /** @throws ArgumentError for an undeclared key or a value that does not fit; nothing is written then. */
  async set(key: string, value: UiSettingValue): Promise<UiSettings> {
    await this.store.set(key, value);
    return this.#changed();
  }

  async reset(key: string): Promise<UiSettings> {
    await this.store.reset(key);
    return this.#changed();
  }

  dispose(): void {
    this.#sinks.clear();
    this.#subscription?.dispose();
  }

  #changed(): UiSettings {
    const settings = this.list();
    const message: PanelMessage = { type: 'settings.changed', settings };
    for (const sink of [...this.#sinks]) sink(message);
    return settings;
  }

  #setting(key: string, declaration: SettingDeclaration): UiSetting {
    const raw = this.store.raw(key);
    const fits = raw !== undefined && valueProblem(declaration, raw) === undefined;
    const { type, title, description, caution } = declaration;
    return {
      key,
      type,
      title,
      ...(description === undefined ? {} : { description }),
      ...(caution === undefined ? {} : { caution }),
      default: declaration.default,
      value: fits ? (raw as UiSettingValue) : declaration.default,
      stored: raw === undefined ? 'absent' : fits ? 'valid' : 'invalid',
      ...(declaration.type === 'enum' ? { enum: declaration.enum } : {}),
      ...(declaration.type === 'integer' ? bounds(declaration) : {}),
      ...(declaration.type === 'string' && declaration.maxLength !== undefined
        ? { maxLength: declaration.maxLength }
        : {}),
    };
  }
}

function bounds({ minimum, maximum }: { minimum?: number; maximum?: number }): Partial<UiSetting> {
  return {
    ...(minimum === undefined ? {} : { minimum }),
    ...(maximum === undefined ? {} : { maximum }),
  };
}
