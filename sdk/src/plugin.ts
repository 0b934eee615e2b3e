import type { ServiceIdentifier } from 'inversify';
import type { CliCommand } from './command.js';
import type { PluginHooks } from './hooks.js';
import type { EditorCommandHandler } from './editor-command.js';
import type { Disposable } from './lifecycle.js';
import type { PanelProvider, PanelRegistration } from './panel.js';
import type { DocumentKind } from './services/documents.js';
import type { ToolDefinition } from './tool.js';
import type { ViewProvider } from './view-provider.js';

/** A problem the owner of an extension point finds in a contribution; an error refuses it. */
export interface ContributionDiagnostic {
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

/** One plugin's contribution to an extension point, as its owner sees it. */
export interface ExtensionContribution<T> {
  readonly pluginId: string;
  /** The contributor's manifest entry for the point (`contributes[pointId]`), as checked. */
  readonly declaration: unknown;
  readonly value: T;
}

/** Another plugin's static contribution to the same point, for checks across plugins (collisions). */
export interface PeerDeclaration {
  readonly pluginId: string;
  readonly declaration: unknown;
}

export interface ExtensionPointOptions<T> {
  /**
   * Checks a contributor's manifest entry for the point, before its code runs. Pure. `peers` are
   * the entries of the plugins that take precedence (built-ins before user and npm plugins, then
   * activation order). An error keeps the contributor from loading and is shown on it.
   */
  validate(
    declaration: unknown,
    context: { readonly pluginId: string; readonly peers: readonly PeerDeclaration[] },
  ): readonly ContributionDiagnostic[];
  /** Checks what a contributor hands over at run time against its declaration; throws to refuse it. */
  accept(value: unknown, declaration: unknown): T;
}

/**
 * An extension point a plugin declares (`contributes.extensionPoints`) and reads: the
 * contributions of the plugins that contribute to it, in the order they were made.
 */
export interface ExtensionPoint<T> {
  readonly id: string;
  contributions(): readonly ExtensionContribution<T>[];
  /** Called when a contribution is added or removed (a contributor enabled or disabled). */
  onDidChange(listener: () => void): Disposable;
}

/** What `activate` receives. Every `register*` is undone when the plugin is disabled. */
export interface PluginContext {
  /** The plugin's manifest id. */
  readonly id: string;
  readonly hooks: PluginHooks;
  /** Resolves a host service or one of the plugin's own bindings. */
  get<T>(token: ServiceIdentifier<T>): T;
  /** Registers a composite tool declared in the manifest's `contributes.tools`. */
  registerTool(tool: ToolDefinition): Disposable;
  /** Registers a `vmark <name>` terminal command declared in the manifest's `contributes.commands`. */
  registerCommand(command: CliCommand): Disposable;
  /**
   * Handles an editor command declared in the manifest's `contributes.editorCommands` (host API
   * 1.9.0): the palette and the person's keys run it through the host. One handler per id.
   */
  registerEditorCommand(id: string, handler: EditorCommandHandler): Disposable;
  /** Registers a document kind declared in the manifest's `contributes.kinds`. */
  registerKind(kind: DocumentKind): Disposable;
  /** Registers the host half of a panel declared in the manifest's `contributes.panels`. */
  registerPanel(provider: PanelProvider): PanelRegistration;
  /** Registers the host half of a custom view the manifest's `contributes.views` declares for `provider.kind`. */
  registerViewProvider(provider: ViewProvider): Disposable;
  /**
   * Opens an extension point declared in the manifest's `contributes.extensionPoints`; plugins
   * that depend on this one contribute to it. Closed when the plugin is deactivated.
   */
  declareExtensionPoint<T>(id: string, options: ExtensionPointOptions<T>): ExtensionPoint<T>;
  /** Contributes to another plugin's extension point, as the manifest's `contributes[pointId]` declares. */
  contribute(pointId: string, value: unknown): Disposable;
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
