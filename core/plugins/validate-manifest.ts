import path from 'node:path';
import valid from 'semver/functions/valid.js';
import validRange from 'semver/ranges/valid.js';
import satisfies from 'semver/functions/satisfies.js';
import { type Diagnostic, error, warning } from './diagnostics.js';
import { declarationProblems, nestedKeyProblems } from '../settings/setting-declaration.js';
import { editorCommandProblems } from './editor-command-problems.js';
import { type PluginManifest, pluginManifest } from './manifest.js';

const PLUGIN_ID = /^[a-z0-9-]+$/;
/** The commands of `core/cli/main.ts`, which plugin commands may not shadow. */
const BUILTIN_COMMANDS = new Set(['mcp', 'serve', 'app', 'plugins', 'approvals', 'checkpoints', 'help']);
const KNOWN_KEYS = new Set([
  'id',
  'name',
  'version',
  'description',
  'engines',
  'main',
  'dependencies',
  'contributes',
]);

export interface ManifestCheck {
  /** Present when the manifest has the right shape (it may still carry errors, e.g. incompatibility). */
  readonly manifest?: PluginManifest;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Checks a parsed `manifest.json` against the host API version. Pure: it reads
 * nothing and throws nothing; every problem is a diagnostic.
 */
export function validateManifest(raw: unknown, hostApiVersion: string): ManifestCheck {
  const parsed = pluginManifest.safeParse(raw);
  if (!parsed.success) {
    return {
      diagnostics: parsed.error.issues.map((issue) =>
        error(`manifest ${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`),
      ),
    };
  }
  const manifest = parsed.data;
  const diagnostics: Diagnostic[] = [];

  if (!PLUGIN_ID.test(manifest.id))
    diagnostics.push(error(`id "${manifest.id}" must match ${String(PLUGIN_ID)}`));
  if (!valid(manifest.version))
    diagnostics.push(error(`version "${manifest.version}" is not a semver version`));

  if (!validRange(manifest.engines.host)) {
    diagnostics.push(error(`engines.host "${manifest.engines.host}" is not a semver range`));
  } else if (!satisfies(hostApiVersion, manifest.engines.host)) {
    diagnostics.push(
      error(
        `not compatible with the vmark host API ${hostApiVersion}; the plugin requires ${manifest.engines.host}`,
      ),
    );
  }

  const main = path.posix.normalize(manifest.main.replaceAll('\\', '/'));
  if (path.posix.isAbsolute(main) || main.startsWith('../') || main === '..') {
    diagnostics.push(error(`main "${manifest.main}" must be a path inside the plugin folder`));
  }

  for (const [id, range] of Object.entries(manifest.dependencies ?? {})) {
    if (!PLUGIN_ID.test(id)) diagnostics.push(error(`dependency id "${id}" must match ${String(PLUGIN_ID)}`));
    if (id === manifest.id) diagnostics.push(error('a plugin cannot depend on itself'));
    if (!validRange(range)) diagnostics.push(error(`dependency "${id}" has an invalid range "${range}"`));
  }

  const tools = manifest.contributes?.tools ?? [];
  const toolNames = tools.map((t) => t.name);
  for (const name of new Set(toolNames.filter((n, i) => toolNames.indexOf(n) !== i))) {
    diagnostics.push(error(`tool "${name}" is contributed twice`));
  }
  for (const tool of tools) {
    if (new Set(tool.actions).size !== tool.actions.length)
      diagnostics.push(error(`tool "${tool.name}" repeats an action`));
    if (tool.annotations.readOnlyHint && tool.annotations.destructiveHint) {
      diagnostics.push(error(`tool "${tool.name}" cannot be both read-only and destructive`));
    }
  }

  const commands = (manifest.contributes?.commands ?? []).map((c) => c.name);
  for (const name of new Set(commands.filter((n, i) => commands.indexOf(n) !== i))) {
    diagnostics.push(error(`command "${name}" is contributed twice`));
  }
  for (const name of commands.filter((n) => BUILTIN_COMMANDS.has(n))) {
    diagnostics.push(error(`command "${name}" is one of vmark's own`));
  }

  for (const problem of editorCommandProblems(manifest.id, manifest.contributes?.editorCommands ?? [])) {
    diagnostics.push(error(problem));
  }

  const panels = (manifest.contributes?.panels ?? []).map((p) => p.id);
  for (const id of new Set(panels.filter((n, i) => panels.indexOf(n) !== i))) {
    diagnostics.push(error(`panel "${id}" is contributed twice`));
  }

  for (const problem of viewProblems(manifest)) diagnostics.push(error(problem));

  const settings = Object.entries(manifest.contributes?.settings ?? {});
  for (const [key, declaration] of settings) {
    for (const problem of declarationProblems(key, declaration)) diagnostics.push(error(problem));
  }
  for (const problem of nestedKeyProblems(settings.map(([key]) => key))) diagnostics.push(error(problem));

  for (const key of Object.keys(raw as object)) {
    if (!KNOWN_KEYS.has(key)) diagnostics.push(warning(`unknown manifest field "${key}" is ignored`));
  }
  return { manifest, diagnostics };
}

/** A view is of one of the plugin's own kinds, and a kind has one view. */
function viewProblems(manifest: PluginManifest): string[] {
  const kinds = new Set((manifest.contributes?.kinds ?? []).map((k) => k.id));
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const { kind } of manifest.contributes?.views ?? []) {
    if (!kinds.has(kind))
      problems.push(`view of kind "${kind}": the plugin does not declare that kind in contributes.kinds`);
    if (seen.has(kind)) problems.push(`kind "${kind}" has more than one view`);
    seen.add(kind);
  }
  return problems;
}
