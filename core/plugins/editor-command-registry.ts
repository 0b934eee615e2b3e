import type { Disposable, EditorCommandCall, EditorCommandHandler } from '@vmark/sdk';
import { ArgumentError } from '@vmark/sdk';
import type { EditorCommandContribution } from './manifest.js';

/** A running plugin's editor command: its manifest entry and the handler it registered. */
export interface RegisteredEditorCommand {
  readonly pluginId: string;
  readonly declaration: EditorCommandContribution;
  readonly handler: EditorCommandHandler;
}

/**
 * The editor commands of the active plugins (ADR 61), by id. An id is `<plugin id>.<name>`, so
 * two plugins never meet on one; a plugin that registers one id twice is refused. A command
 * leaves with its plugin: its registration is undone when the plugin is turned off.
 */
export class EditorCommandRegistry {
  readonly #commands = new Map<string, RegisteredEditorCommand>();
  readonly #listeners = new Set<() => void>();

  /** @throws Error when `declaration.id` already has a handler. */
  add(pluginId: string, declaration: EditorCommandContribution, handler: EditorCommandHandler): Disposable {
    const owner = this.#commands.get(declaration.id);
    if (owner)
      throw new Error(
        `editor command "${declaration.id}" already has a handler (plugin "${owner.pluginId}")`,
      );
    const entry = { pluginId, declaration, handler };
    this.#commands.set(declaration.id, entry);
    this.#changed();
    return {
      dispose: () => {
        if (this.#commands.get(declaration.id) !== entry) return;
        this.#commands.delete(declaration.id);
        this.#changed();
      },
    };
  }

  /**
   * A command the plugin's text view runs in the editor page (`runsIn: page`, ADR 72): listed
   * like the others; the host has nothing to run for it.
   */
  addPageCommand(pluginId: string, declaration: EditorCommandContribution): Disposable {
    return this.add(pluginId, declaration, () => {
      throw new ArgumentError(
        `The editor command "${declaration.id}" runs in the editor page, on the Markdown being edited`,
      );
    });
  }

  has(id: string): boolean {
    return this.#commands.has(id);
  }

  /** In registration order: the earlier plugin's first (built-ins activate first). */
  list(): RegisteredEditorCommand[] {
    return [...this.#commands.values()];
  }

  /**
   * Runs the command's handler; the string it returns is a note for the person.
   * @throws ArgumentError for an id no running plugin handles; whatever the handler throws.
   */
  async run(id: string, call: EditorCommandCall): Promise<string | undefined> {
    const entry = this.#commands.get(id);
    if (entry === undefined) throw new ArgumentError(`No running plugin has an editor command "${id}"`);
    const note = await entry.handler(call);
    return typeof note === 'string' ? note : undefined;
  }

  onDidChange(listener: () => void): Disposable {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }

  #changed(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
