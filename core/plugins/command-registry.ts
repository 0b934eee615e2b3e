import type { CliCommand, Disposable } from '@vmark/sdk';
import { injectable } from 'inversify';

/** The `vmark <name>` commands of the active plugins. */
@injectable()
export class CommandRegistry {
  readonly #commands = new Map<string, { readonly pluginId: string; readonly command: CliCommand }>();

  add(pluginId: string, command: CliCommand): Disposable {
    const owner = this.#commands.get(command.name);
    if (owner)
      throw new Error(`command "${command.name}" is already registered by plugin "${owner.pluginId}"`);
    const entry = { pluginId, command };
    this.#commands.set(command.name, entry);
    return {
      dispose: () => {
        if (this.#commands.get(command.name) === entry) this.#commands.delete(command.name);
      },
    };
  }

  get(name: string): CliCommand | undefined {
    return this.#commands.get(name)?.command;
  }
}
