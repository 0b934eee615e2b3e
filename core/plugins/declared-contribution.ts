/**
 * Whether what a plugin registers at run time is what its manifest declares (after VS Code's
 * extensionValidator.ts: pure checks that return a diagnostic). The host lists a plugin's
 * contributions from its manifest before its code runs, so a registration the manifest does
 * not declare fails the plugin's activation.
 */
import type { ToolDefinition } from '@vmark/sdk';
import { type Diagnostic, error } from './diagnostics.js';
import type { PluginManifest } from './manifest.js';

type Contributes = NonNullable<PluginManifest['contributes']>;

interface Declared {
  /** The ids the manifest declares of this contribution. */
  readonly ids: (contributes: Contributes) => readonly string[] | undefined;
  /** What is said of a registration with an undeclared `id`. */
  readonly undeclared: (pluginId: string, id: string) => string;
}

const registers =
  (what: string) =>
  (pluginId: string, id: string): string =>
    `plugin "${pluginId}" registers ${what} "${id}" that its manifest does not declare`;

/** Each contribution a plugin registers at run time, and where its manifest declares it: one line each. */
const DECLARED = {
  tool: {
    ids: (c) => c.tools?.map((t) => t.name),
    undeclared: (pluginId, id) =>
      `plugin "${pluginId}" tool "${id}" is not declared in the manifest's contributes.tools`,
  },
  command: { ids: (c) => c.commands?.map((x) => x.name), undeclared: registers('command') },
  editorCommand: {
    ids: (c) => c.editorCommands?.map((x) => x.id),
    undeclared: (pluginId, id) =>
      `plugin "${pluginId}" handles editor command "${id}" that its manifest's contributes.editorCommands does not declare`,
  },
  kind: { ids: (c) => c.kinds?.map((k) => k.id), undeclared: registers('document kind') },
  panel: { ids: (c) => c.panels?.map((p) => p.id), undeclared: registers('panel') },
  view: { ids: (c) => c.views?.map((v) => v.kind), undeclared: registers('a view provider for kind') },
  extensionPoint: {
    ids: (c) => c.extensionPoints?.map((p) => p.id),
    undeclared: (pluginId, id) =>
      `plugin "${pluginId}" opens extension point "${id}" that its manifest does not declare`,
  },
} satisfies Record<string, Declared>;

export type ContributionKind = keyof typeof DECLARED;

/** Why a plugin may not register the `kind` with `id`, or null when its manifest declares it. */
export function undeclaredContribution(
  manifest: PluginManifest,
  kind: ContributionKind,
  id: string,
): Diagnostic | null {
  const { ids, undeclared } = DECLARED[kind];
  const declared = manifest.contributes === undefined ? undefined : ids(manifest.contributes);
  return declared?.includes(id) ? null : error(undeclared(manifest.id, id));
}

/** A tool must be registered exactly as its manifest declares it: the host lists tools from manifests. */
export function toolMismatch(manifest: PluginManifest, tool: ToolDefinition): Diagnostic | null {
  const undeclared = undeclaredContribution(manifest, 'tool', tool.name);
  if (undeclared) return undeclared;
  const declared = manifest.contributes!.tools!.find((t) => t.name === tool.name)!;
  const where = `plugin "${manifest.id}" tool "${tool.name}"`;
  if (declared.title !== tool.title) return error(`${where}: title differs from the manifest`);
  for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    if (declared.annotations[hint] !== tool.annotations[hint])
      return error(`${where}: ${hint} differs from the manifest`);
  }
  const sameActions =
    declared.actions.length === tool.actionNames.length &&
    declared.actions.every((a, i) => a === tool.actionNames[i]);
  if (!sameActions) {
    return error(
      `${where}: actions [${tool.actionNames.join(', ')}] differ from the manifest's [${declared.actions.join(', ')}]`,
    );
  }
  return null;
}
