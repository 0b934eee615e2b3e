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
  /** Whether "Allow on this site" may be offered. */
  readonly grantable: boolean;
}

/** `allow-site`: a standing grant for the operation on the ask's origin, only where `grantable`. */
export type UiApprovalAnswer = 'allow' | 'allow-site' | 'deny';

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
  readonly commands: readonly string[];
  readonly panels: readonly string[];
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
}

export type PanelMessage =
  | { readonly type: 'approval.ask'; readonly ask: UiApprovalAsk }
  /** The dialog is no longer needed: answered (here or in another window), or its call was cancelled. */
  | { readonly type: 'approval.settled'; readonly askId: string }
  | { readonly type: 'plugins.changed'; readonly plugins: readonly UiPlugin[] }
  | { readonly type: 'history.added'; readonly checkpoint: UiCheckpoint };
