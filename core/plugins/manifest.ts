import { z } from '@vmark/sdk';
import { settingDeclaration } from '../settings/setting-declaration.js';

/** The shape of a plugin's `manifest.json`. Contributions are static so the host can list them before activation. */

const annotations = z.strictObject({
  readOnlyHint: z.boolean(),
  destructiveHint: z.boolean(),
  idempotentHint: z.boolean(),
  openWorldHint: z.boolean(),
});

export const toolContribution = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/),
  title: z.string().min(1),
  annotations,
  actions: z.array(z.string().min(1)).min(1),
});

const kindContribution = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().optional(),
});

/** `vmark <name>`: lower-case words, so a command is typed the way it is listed. */
export const commandContribution = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/),
  summary: z.string().min(1),
});

/**
 * A command of the editor (ADR 54): listed in the palette, run by its key, its handler registered
 * at activation. Only the shape here; `editor-command-problems.ts` checks ids, keys and `when`.
 */
export const editorCommandContribution = z.strictObject({
  id: z.string(),
  title: z.string(),
  category: z.string().optional(),
  /** The default key on every platform (`Mod+Shift+O`), and one for macOS where it differs. */
  key: z.string().optional(),
  mac: z.string().optional(),
  when: z.string().optional(),
  /**
   * Where its handler runs (ADR 72): `host` (the default) by `registerEditorCommand`; `page` by the
   * plugin's text view for the kind the person is editing, on that editor (its `commands`).
   */
  runsIn: z.enum(['host', 'page']).optional(),
});

/** A file under the plugin's `ui/` folder: plain names only, so no `..`, no escape (ADR 20). */
const panelModule = z
  .string()
  .regex(/^ui\/(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\.js$/, {
    message: 'must name a .js file inside the plugin\'s ui/ folder, e.g. "ui/dist/notes.js"',
  });

const panelContribution = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().min(1),
  /** Where the editor shows it: under the file tree, below the editor, or beside it. */
  slot: z.enum(['sidebar', 'bottom', 'right']),
  /** The browser module that mounts it; `ui/<id>.js` when omitted. */
  module: panelModule.optional(),
});

/** The editor view of one of the plugin's own kinds (ADR 35): a browser module that exports `view`. */
const viewContribution = z.strictObject({
  kind: z.string().regex(/^[a-z0-9-]+$/),
  module: panelModule,
});

const extensionPoint = z.strictObject({
  id: z.string().regex(/^[a-zA-Z0-9-]+$/),
  description: z.string().optional(),
});

export const pluginManifest = z.object({
  id: z.string(),
  name: z.string().min(1),
  version: z.string(),
  description: z.string().optional(),
  engines: z.object({ host: z.string() }),
  main: z.string().min(1),
  dependencies: z.record(z.string(), z.string()).optional(),
  contributes: z
    .object({
      tools: z.array(toolContribution).optional(),
      kinds: z.array(kindContribution).optional(),
      commands: z.array(commandContribution).optional(),
      editorCommands: z.array(editorCommandContribution).optional(),
      panels: z.array(panelContribution).optional(),
      views: z.array(viewContribution).optional(),
      /** Dotted key → declaration; the key is also its path in `$VMARK_HOME/settings.json`. */
      settings: z.record(z.string(), settingDeclaration).optional(),
      extensionPoints: z.array(extensionPoint).optional(),
    })
    // Contributions to other plugins' extension points (e.g. `siteExtractors`) are keyed by the point's id.
    .catchall(z.unknown())
    .optional(),
});

export type PluginManifest = z.infer<typeof pluginManifest>;
export type ToolContribution = z.infer<typeof toolContribution>;
export type CommandContribution = z.infer<typeof commandContribution>;
export type EditorCommandContribution = z.infer<typeof editorCommandContribution>;
export type PanelContribution = z.infer<typeof panelContribution>;
export type ViewContribution = z.infer<typeof viewContribution>;
