import type { Disposable, EditorCommandCall } from '@vmark/sdk';
import { ArgumentError, DisposableStore, toDisposable } from '@vmark/sdk';
import type { PluginHost } from '../../plugins/plugin-host.js';
import { BUILTIN_COMMANDS, type CommandDeclaration, panelToggleId } from '../../protocol/builtin-commands.js';
import type { CommandMessage, UiCommand, UiCommands } from '../../protocol/command-protocol.js';
import { type Platform, parseKeyString } from '../../protocol/key-string.js';
import type { KeybindingsStore } from '../../settings/keybindings-store.js';
import { resolveKeys } from '../../settings/keybindings.js';

/** What the commands need of the plugin host. */
export type CommandSource = Pick<PluginHost, 'editorCommands' | 'activePanels' | 'reports' | 'onDidChange'>;

interface CatalogEntry {
  readonly declaration: CommandDeclaration;
  readonly pluginId: string | null;
  readonly category: string;
}

/**
 * The host side of the command palette, the page's keys and their Settings (ADR 61): every
 * command there is now — the editor's own, one per active plugin panel, and each running plugin's
 * — with the key in force for the page's platform (the defaults, then `keybindings.json`), the
 * keys two commands share, and what in the file could not be used. Runs plugins' commands, and
 * tells every window when the list or a key changes.
 */
export class UiCommandService implements Disposable {
  readonly #sinks = new Set<(message: CommandMessage) => void>();
  readonly #subscriptions = new DisposableStore();

  constructor(
    private readonly plugins: CommandSource,
    private readonly keys: KeybindingsStore,
  ) {
    const changed = () => this.#changed();
    this.#subscriptions.add(plugins.onDidChange(changed));
    this.#subscriptions.add(plugins.editorCommands.onDidChange(changed));
  }

  attach(sink: (message: CommandMessage) => void): Disposable {
    this.#sinks.add(sink);
    return toDisposable(() => this.#sinks.delete(sink));
  }

  async list(platform: Platform): Promise<UiCommands> {
    const catalog = this.#catalog();
    const { overrides, problem } = await this.keys.load();
    const declared = catalog.map(({ declaration: { id, key, mac } }) => ({ commandId: id, key, mac }));
    const resolved = resolveKeys(declared, overrides, platform);
    const defaults = resolveKeys(declared, {}, platform);
    const commands = catalog.map(({ declaration, pluginId, category }): UiCommand => ({
      id: declaration.id,
      title: declaration.title,
      category,
      pluginId,
      runsIn: pluginId === null ? 'page' : (declaration.runsIn ?? 'host'),
      key: resolved.keys.get(declaration.id) ?? null,
      defaultKey: defaults.keys.get(declaration.id) ?? null,
      changed: Object.hasOwn(overrides, declaration.id),
      when: declaration.when ?? null,
    }));
    return {
      file: this.keys.file,
      commands,
      conflicts: [...resolved.conflicts].map(([key, commandIds]) => ({ key, commandIds })),
      problems: [...(problem === undefined ? [] : [problem]), ...resolved.problems],
    };
  }

  /** Runs a running plugin's command. @throws ArgumentError for an id no running plugin handles. */
  async run(id: string, call: EditorCommandCall): Promise<{ note: string | null }> {
    return { note: (await this.plugins.editorCommands.run(id, call)) ?? null };
  }

  /**
   * Gives the command `key` (`null`: none) in keybindings.json.
   * @throws ArgumentError for a command there is not or a key string that is not one;
   *   DomainError `READ_ONLY` for a file that is not usable. Nothing is written then.
   */
  async set(id: string, key: string | null, platform: Platform): Promise<UiCommands> {
    if (!this.#catalog().some((entry) => entry.declaration.id === id))
      throw new ArgumentError(`There is no command "${id}" to give a key to`);
    let canonical: string | null = null;
    if (key !== null) {
      const parsed = parseKeyString(key, platform);
      if ('problem' in parsed) throw new ArgumentError(parsed.problem);
      canonical = parsed.key;
    }
    await this.keys.update((current) => ({ ...current, [id]: canonical }));
    return this.#afterWrite(platform);
  }

  /** Drops the command's entry from keybindings.json, so its default key applies again. */
  async reset(id: string, platform: Platform): Promise<UiCommands> {
    await this.keys.update((current) =>
      Object.fromEntries(Object.entries(current).filter(([k]) => k !== id)),
    );
    return this.#afterWrite(platform);
  }

  dispose(): void {
    this.#sinks.clear();
    this.#subscriptions.dispose();
  }

  async #afterWrite(platform: Platform): Promise<UiCommands> {
    this.#changed();
    return this.list(platform);
  }

  #changed(): void {
    const message: CommandMessage = { type: 'commands.changed' };
    for (const sink of [...this.#sinks]) sink(message);
  }

  #catalog(): CatalogEntry[] {
    const names = new Map(this.plugins.reports().map((report) => [report.id, report.name]));
    const builtins = BUILTIN_COMMANDS.map((declaration) => ({
      declaration,
      pluginId: null,
      category: declaration.category ?? 'vmark',
    }));
    const panels = this.plugins.activePanels().map(({ pluginId, panel }) => ({
      declaration: { id: panelToggleId(pluginId, panel.id), title: `Toggle ${panel.title}` },
      pluginId: null,
      category: names.get(pluginId) ?? pluginId,
    }));
    const plugins = this.plugins.editorCommands.list().map(({ pluginId, declaration }) => ({
      declaration,
      pluginId,
      category: declaration.category ?? names.get(pluginId) ?? pluginId,
    }));
    return [...builtins, ...panels, ...plugins];
  }
}
