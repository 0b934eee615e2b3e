/** The `PluginContext` a plugin's `activate` receives: every registration checked against its manifest and undone with it. */
import type { DisposableStore, DocumentKinds, HostHooks, PluginContext } from '@vmark/sdk';
import type { Container } from 'inversify';
import { pluginHooks } from '../hooks/plugin-hooks.js';
import type { CommandRegistry } from './command-registry.js';
import { type ContributionKind, toolMismatch, undeclaredContribution } from './declared-contribution.js';
import type { EditorCommandRegistry } from './editor-command-registry.js';
import type { ExtensionPointRegistry } from './extension-points.js';
import type { PluginManifest } from './manifest.js';
import type { PanelRegistry } from './panel-registry.js';
import type { ToolRegistry } from './tool-registry.js';
import type { ViewProviderRegistry } from './view-provider-registry.js';

/** The host's registries a plugin's registrations land in. */
export interface PluginRegistries {
  readonly hooks: HostHooks;
  readonly tools: ToolRegistry;
  readonly kinds: DocumentKinds;
  readonly commands: CommandRegistry;
  readonly editorCommands: EditorCommandRegistry;
  readonly panels: PanelRegistry;
  readonly views: ViewProviderRegistry;
  readonly extensionPoints: ExtensionPointRegistry;
}

/**
 * The context for the plugin of `manifest`, running in `container`; what it registers is added to
 * `subscriptions`, and the names of the tools it registers to `registered`.
 */
export function pluginContext(
  manifest: PluginManifest,
  registries: PluginRegistries,
  container: Container,
  subscriptions: DisposableStore,
  registered: Set<string>,
): PluginContext {
  const hooks = pluginHooks(registries.hooks, manifest.id);
  const mustDeclare = (kind: ContributionKind, id: string) => {
    const refusal = undeclaredContribution(manifest, kind, id);
    if (refusal) throw new Error(refusal.message);
  };
  return {
    id: manifest.id,
    hooks: {
      tap: (name, fn) => subscriptions.add(hooks.tap(name, fn)),
      tapWaterfall: (name, fn) => subscriptions.add(hooks.tapWaterfall(name, fn)),
    },
    get: (token) => container.get(token),
    registerTool: (tool) => {
      const mismatch = toolMismatch(manifest, tool);
      if (mismatch) throw new Error(mismatch.message);
      registered.add(tool.name);
      return subscriptions.add(registries.tools.add(manifest.id, tool));
    },
    registerCommand: (command) => {
      mustDeclare('command', command.name);
      return subscriptions.add(registries.commands.add(manifest.id, command));
    },
    registerEditorCommand: (id, handler) => {
      mustDeclare('editorCommand', id);
      const declaration = manifest.contributes!.editorCommands!.find((c) => c.id === id)!;
      if (declaration.runsIn === 'page')
        throw new Error(
          `editor command "${id}" runs in the page (its text view handles it), not in the host`,
        );
      return subscriptions.add(registries.editorCommands.add(manifest.id, declaration, handler));
    },
    registerKind: (kind) => {
      mustDeclare('kind', kind.id);
      return subscriptions.add(registries.kinds.register(kind));
    },
    registerPanel: (provider) => {
      mustDeclare('panel', provider.id);
      return subscriptions.add(registries.panels.add(manifest.id, provider));
    },
    registerViewProvider: (provider) => {
      mustDeclare('view', provider.kind);
      return subscriptions.add(registries.views.add(manifest.id, provider));
    },
    declareExtensionPoint: (id, options) => {
      mustDeclare('extensionPoint', id);
      return subscriptions.add(registries.extensionPoints.declare(manifest.id, id, options));
    },
    contribute: (pointId, value) =>
      subscriptions.add(registries.extensionPoints.contribute(manifest, pointId, value)),
    track: (disposable) => subscriptions.add(disposable),
  };
}
