/**
 * The WebSocket messages of the approval dialogs, the plugin manager and the AI
 * edit history panel: types only, merged into `protocol.ts`'s `Requests` and
 * `ServerMessage`, shared by the host's UI server and the renderer.
 */

/** A question the approval broker put to the person at the UI, shown as a dialog. */
export interface UiApprovalAsk {
  /** Names this dialog in `approval.answer`; one per open question, never reused. */
  readonly askId: string;
  /** The broker's request id (`apr-…`), as `vmark approvals list` shows it. */
  readonly requestId: string;
  /** e.g. `open_workspace`, `execute_js`. */
  readonly operation: string;
  /** Exactly what it would happen to: a canonical folder path, a URL, a whole script. */
  readonly subject: string;
  readonly origin?: string;
  /** The subject as the client wrote it, when that differs (a path before links are resolved). */
  readonly requested?: string;
  /** Why it cannot happen even if allowed, e.g. the path is not a folder. */
  readonly warning?: string;
  /** What else allowing it does, e.g. the file a save_as replaces. */
  readonly detail?: string;
  /** A picture of what it concerns (a crop of the page around the element): a PNG data URL, shown only if it is one. */
  readonly image?: string;
  /** Whether "Allow on this site" may be offered. */
  readonly grantable: boolean;
  /** Whether "Allow until navigation" is offered (an attachment of a person's tab). */
  readonly untilNavigation?: boolean;
  /** Who asks; the answer holds for this connection alone. */
  readonly client: UiApprovalClient;
}

/** The MCP client connection that asks for an approval. */
export interface UiApprovalClient {
  /** `conn-N`: tells apart two connections of clients with the same name. */
  readonly connectionId: string;
  /** The name the client gives itself: its own claim, not checked. */
  readonly name: string;
  readonly version: string;
  /** The installed client its credential names (`vmark mcp install`), or null. */
  readonly principal: string | null;
}

/** `allow-site`: a standing grant for the operation on the ask's origin, only where `grantable`. */
export type UiApprovalAnswer = 'allow' | 'allow-site' | 'allow-until-navigation' | 'deny';

/**
 * One "Allow on this site" as a person sees it (`vmark approvals grants`, the Settings list): which
 * operation, on which canonical origin, held by which connection, since when. Value-free: no
 * subject, no text typed, no script — a grant names only what it covers.
 */
export interface StandingGrant {
  /** `grt-` + 8 alphanumerics: what `vmark approvals revoke` takes. */
  readonly id: string;
  readonly operation: string;
  /** `scheme://host[:port]`, lower-cased, punycode, default port dropped. */
  readonly origin: string;
  /** The one connection whose calls it covers (`conn-N`); it lapses with the host, never written down. */
  readonly connectionId: string;
  /** The name the client gives itself: its own claim. */
  readonly clientName: string;
  /** The installed client its credential names, or null. */
  readonly principal: string | null;
  /** Where the person said "on this site": the UI dialog or the client's elicitation form. */
  readonly grantedBy: 'ui' | 'elicitation' | 'terminal';
  /** ISO 8601. */
  readonly grantedAt: string;
}

export interface UiDiagnostic {
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

/** One plugin as the plugin manager shows it. */
export interface UiPlugin {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly source: 'builtin' | 'user' | 'npm' | 'inline';
  readonly enabled: boolean;
  readonly active: boolean;
  readonly diagnostics: readonly UiDiagnostic[];
  readonly tools: readonly string[];
  /** The titles of the document kinds it opens, e.g. `Markdown`. */
  readonly kinds: readonly string[];
  readonly commands: readonly string[];
  readonly panels: readonly string[];
  /** The keys of the settings it declares (shown while it is on). */
  readonly settings: readonly string[];
  /** The names of the enabled plugins that need it, directly or not: they stop when it is turned off. */
  readonly dependents: readonly string[];
}

/** One AI edit, as the history panel lists it (newest first). */
export interface UiCheckpoint {
  readonly id: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** `<tool>.<action>`, e.g. `document.write`. */
  readonly tool: string;
  readonly description: string;
  /** Null for an untitled document, which cannot be restored. */
  readonly filePath: string | null;
}

/** A panel an active plugin contributes (ADR 20): where it goes and the module that mounts it. */
export interface UiPluginPanel {
  readonly pluginId: string;
  readonly panelId: string;
  readonly title: string;
  readonly slot: 'sidebar' | 'bottom' | 'right';
  /** The module's URL path on the UI server (`/plugins/<id>/ui/…js`); the page adds its token. */
  readonly modulePath: string;
}

/** The editor view a plugin contributes for one of its kinds (ADR 35). */
export interface UiKindView {
  readonly pluginId: string;
  readonly kind: string;
  /** The module's URL path on the UI server (`/plugins/<id>/ui/…js`); the page adds its token. */
  readonly modulePath: string;
}

/** A setting's value: settings are booleans, enum strings, whole numbers or strings. */
export type UiSettingValue = boolean | number | string;

/** One declared setting as the settings panel shows it. */
export interface UiSetting {
  /** Dotted, and its path in settings.json, e.g. `integrations.autoApproveEdits`. */
  readonly key: string;
  readonly type: 'boolean' | 'enum' | 'integer' | 'string';
  readonly title: string;
  readonly description?: string;
  /** What turning it on gives away (e.g. an approval); shown highlighted. */
  readonly caution?: string;
  readonly default: UiSettingValue;
  /** What applies now: the file's value when it fits, else the default. */
  readonly value: UiSettingValue;
  /** Whether settings.json holds a value for it, and whether that value fits (one that does not is ignored). */
  readonly stored: 'absent' | 'valid' | 'invalid';
  readonly enum?: readonly string[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxLength?: number;
}

/** The settings of one enabled plugin, the one that reads them (a turned-off plugin's are not listed). */
export interface UiSettingsGroup {
  /** The plugin id. */
  readonly id: string;
  readonly title: string;
  readonly settings: readonly UiSetting[];
}

export interface UiSettings {
  /** Where they live: `$VMARK_HOME/settings.json`. */
  readonly file: string;
  readonly groups: readonly UiSettingsGroup[];
}

export interface PanelRequests {
  /** The person's answer to an open dialog; refused when it was answered elsewhere or withdrawn. */
  'approval.answer': { params: { askId: string; answer: UiApprovalAnswer }; result: Record<string, never> };
  'plugins.list': { params: Record<string, never>; result: { plugins: UiPlugin[] } };
  /** Enables or disables a plugin live; the result is the list after the change. */
  'plugins.setEnabled': { params: { id: string; enabled: boolean }; result: { plugins: UiPlugin[] } };
  /** The checkpoints, newest first; only those of `filePath` when it is given. */
  'history.list': { params: { filePath?: string }; result: { checkpoints: UiCheckpoint[] } };
  /**
   * Puts back the text from before a checkpoint's edit as a new revision and saves it,
   * as `vmark checkpoints restore` does; the restore is itself recorded.
   */
  'history.restore': {
    params: { id: string };
    result: { restored: string; filePath: string; revision: string; changed: boolean };
  };
  /** The active plugins' panels; the list changes with every `plugins.changed`. */
  'pluginPanels.list': { params: Record<string, never>; result: { panels: UiPluginPanel[] } };
  /** A panel's request to its own plugin's provider: `load` or one of its actions. */
  'pluginPanels.request': {
    params: { pluginId: string; panelId: string; method: string; params?: unknown };
    result: { value: unknown };
  };
  /** The active plugins' kind views; the list changes with every `plugins.changed`. */
  'kindViews.list': { params: Record<string, never>; result: { views: UiKindView[] } };
  /** A custom view's request to its own plugin's view provider (ADR 49). */
  'kindViews.request': {
    params: { pluginId: string; kind: string; method: string; params?: unknown };
    result: { value: unknown };
  };
  /**
   * A custom view starts watching a topic of its provider: `kindViews.data` pushes carry
   * `watchId` until `kindViews.unwatch`, or `kindViews.ended` when the provider stops it. The page
   * picks the id (one it has not used on this connection), so it knows the pushes that may come
   * before the reply.
   */
  'kindViews.watch': {
    params: { pluginId: string; kind: string; topic: string; watchId: number };
    result: Record<string, never>;
  };
  'kindViews.unwatch': { params: { watchId: number }; result: Record<string, never> };
  'settings.list': { params: Record<string, never>; result: UiSettings };
  /** The standing grants the host holds, oldest first. */
  'grants.list': { params: Record<string, never>; result: { grants: StandingGrant[] } };
  /**
   * Ends one standing grant (`id`), or every grant on one site (`origin`), at once; refused when
   * none of them is held any more. The result is the list after.
   */
  'grants.revoke': { params: { id: string } | { origin: string }; result: { grants: StandingGrant[] } };
  /** Writes one declared setting; refused (and nothing written) for an unknown key or a value that does not fit. */
  'settings.set': { params: { key: string; value: UiSettingValue }; result: UiSettings };
  /** Removes a setting from settings.json, so its default applies. */
  'settings.reset': { params: { key: string }; result: UiSettings };
}

export type PanelMessage =
  /** A window changed a setting, or a plugin was turned on or off: every window shows the new list. */
  | { readonly type: 'settings.changed'; readonly settings: UiSettings }
  | { readonly type: 'approval.ask'; readonly ask: UiApprovalAsk }
  /** A grant was given or revoked (in a dialog, a form, a terminal, another window). */
  | { readonly type: 'grants.changed'; readonly grants: readonly StandingGrant[] }
  /** The dialog is no longer needed: answered (here or in another window), or its call was cancelled. */
  | { readonly type: 'approval.settled'; readonly askId: string }
  | { readonly type: 'plugins.changed'; readonly plugins: readonly UiPlugin[] }
  | { readonly type: 'history.added'; readonly checkpoint: UiCheckpoint }
  /** Another process changed the history (`vmark checkpoints restore`, another host): list it again. */
  | { readonly type: 'history.changed' }
  /** What a view provider pushed to one watch of this page. */
  | { readonly type: 'kindViews.data'; readonly watchId: number; readonly data: unknown }
  /** The provider stopped the watch (its plugin turned off, its tab gone). */
  | { readonly type: 'kindViews.ended'; readonly watchId: number }
  /** A plugin's provider asked its open panels to load again. */
  | { readonly type: 'pluginPanels.refresh'; readonly pluginId: string; readonly panelId: string };
