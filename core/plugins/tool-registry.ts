import type { Disposable, ToolDefinition } from '@vmark/sdk';
import { injectable } from 'inversify';

export interface RegisteredToolEntry {
  readonly pluginId: string;
  readonly tool: ToolDefinition;
}

export type ToolRegistryChange =
  | { readonly type: 'added'; readonly entry: RegisteredToolEntry }
  | { readonly type: 'removed'; readonly entry: RegisteredToolEntry };

/** The tools of the active plugins. Each MCP connection mirrors it and follows its changes. */
@injectable()
export class ToolRegistry {
  #entries = new Map<string, RegisteredToolEntry>();
  #listeners = new Set<(change: ToolRegistryChange) => void>();

  add(pluginId: string, tool: ToolDefinition): Disposable {
    const owner = this.#entries.get(tool.name);
    if (owner) throw new Error(`Tool "${tool.name}" is already registered by plugin "${owner.pluginId}"`);
    const entry = { pluginId, tool };
    this.#entries.set(tool.name, entry);
    this.#emit({ type: 'added', entry });
    return {
      dispose: () => {
        if (this.#entries.get(tool.name) !== entry) return;
        this.#entries.delete(tool.name);
        this.#emit({ type: 'removed', entry });
      },
    };
  }

  list(): RegisteredToolEntry[] {
    return [...this.#entries.values()];
  }

  onDidChange(listener: (change: ToolRegistryChange) => void): Disposable {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }

  #emit(change: ToolRegistryChange): void {
    for (const listener of [...this.#listeners]) listener(change);
  }
}
