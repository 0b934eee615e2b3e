import type { Container, ServiceIdentifier } from 'inversify';
import type { CliCommand } from './command.js';
import type { PluginHooks } from './hooks.js';
import type { Disposable } from './lifecycle.js';
import type { PanelProvider, PanelRegistration } from './panel.js';
import type { DocumentKind } from './services/documents.js';
import type { ToolDefinition } from './tool.js';

/** What `activate` receives. Every `register*` is undone when the plugin is disabled. */
export interface PluginContext {
  /** The plugin's manifest id. */
  readonly id: string;
  /** The plugin's own child container; host services resolve from its parent. */
  readonly container: Container;
  readonly hooks: PluginHooks;
  /** Resolves a host service or one of the plugin's own bindings. */
  get<T>(token: ServiceIdentifier<T>): T;
  /** Registers a composite tool declared in the manifest's `contributes.tools`. */
  registerTool(tool: ToolDefinition): Disposable;
  /** Registers a `vmark <name>` terminal command declared in the manifest's `contributes.commands`. */
  registerCommand(command: CliCommand): Disposable;
  /** Registers a document kind declared in the manifest's `contributes.kinds`. */
  registerKind(kind: DocumentKind): Disposable;
  /** Registers the host half of a panel declared in the manifest's `contributes.panels`. */
  registerPanel(provider: PanelProvider): PanelRegistration;
  /** Keeps any other disposable until the plugin is deactivated. */
  track<T extends Disposable>(disposable: T): T;
}

export interface PluginModule {
  activate(context: PluginContext): void | Promise<void>;
  /** Extra teardown beyond the tracked disposables, which the host disposes anyway. */
  deactivate?(): void | Promise<void>;
}

const PLUGIN = Symbol.for('vmark.plugin');

export interface PluginDefinition extends PluginModule {
  readonly [PLUGIN]: true;
}

/** The default export of a plugin's `main` module. */
export function definePlugin(module: PluginModule): PluginDefinition {
  return { ...module, [PLUGIN]: true };
}

export function isPluginDefinition(value: unknown): value is PluginDefinition {
  return typeof value === 'object' && value !== null && PLUGIN in value;
}
