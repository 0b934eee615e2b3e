/**
 * The JSON spoken over the UI's WebSocket, shared by the host's UI server and the
 * renderer. Types only: the renderer is browser code and imports nothing of Node.
 *
 * The renderer sends requests (`{id, method, params}`) and gets one reply per
 * request; the host pushes `state` whenever the workbench changes and
 * `doc.updates` whenever a subscribed document changes (the `@codemirror/collab`
 * authority model: every confirmed change, the editors' own included, in order).
 */

import type { CommandMessage, CommandRequests } from './command-protocol.js';
import type { PanelMessage, PanelRequests } from './panel-protocol.js';
import type { QuickOpenRequests } from './quick-open-protocol.js';
import type { FilesRequests } from './files-protocol.js';
import type { SearchRequests } from './search-protocol.js';
import type { RecoveryMessage, RecoveryRequests } from './recovery-protocol.js';

/** A `ChangeSet` as `ChangeSet.toJSON()` writes it: retained lengths and `[deleted, ...inserted lines]`. */
export type ChangeSetJson = readonly (number | readonly [number, ...string[]])[];

/** One confirmed (or proposed) change to a document. */
export interface UpdateJson {
  /** The editor that made the change; `HOST_CLIENT_ID` for changes made in the host (MCP, disk). */
  readonly clientID: string;
  readonly changes: ChangeSetJson;
}

/** The clientID of changes that did not come from an editor: an AI's write, a reload from disk. */
export const HOST_CLIENT_ID = 'host';

export interface UiTab {
  readonly id: string;
  readonly title: string;
  /** Absolute path on disk; null for an untitled tab. */
  readonly filePath: string | null;
  readonly kind: string;
  readonly dirty: boolean;
  readonly active: boolean;
  /** The tab belongs to the workspace the window shows (only visible tabs are in the tab strip). */
  readonly visible: boolean;
  /** The file changed or went away on disk while the tab had unsaved changes (ADR 24). */
  readonly conflict?: UiConflict;
  /** A tab a plugin keeps (a browser tab): no document; its kind's custom view shows it (ADR 49). */
  readonly provided?: UiProvidedTab;
}

/** What the tab strip shows of a tab a plugin keeps, as its provider labels it. */
export interface UiProvidedTab {
  readonly loading: boolean;
  /** Who drives it, e.g. "AI sandbox"; null for none. */
  readonly badge: string | null;
  /** A `data:image/…` URL, or null. */
  readonly icon: string | null;
  /** The strip gives it a close button: its plugin closes it when the person asks (ADR 56). */
  readonly closable: boolean;
}

export interface UiConflict {
  readonly reason: 'changed-on-disk' | 'deleted-on-disk';
  /** The bytes on disk the person is deciding about (null: no file), sent back with the answer. */
  readonly diskSha256: string | null;
}

/** A workspace instance on the window's rail. */
export interface UiWorkspace {
  readonly id: string;
  /** Canonical absolute path of its folder. */
  readonly path: string;
  readonly name: string;
}

export interface UiWindow {
  readonly label: string;
  /** The person's window: the page that last had the focus, or the one `focus_window` named. */
  readonly focused: boolean;
  /** The rail's instances, in order; the shown one is `activeWorkspaceInstanceId` (null: none, all tabs show). */
  readonly workspaces: readonly UiWorkspace[];
  readonly activeWorkspaceInstanceId: string | null;
  readonly tabs: readonly UiTab[];
}

export interface UiRoot {
  /** Canonical absolute path of a workspace root. */
  readonly path: string;
  readonly name: string;
}

export interface UiState {
  /** The window this renderer shows: each page is a window of its own. */
  readonly window: UiWindow;
  readonly roots: readonly UiRoot[];
}

export interface TreeEntry {
  readonly name: string;
  /** Absolute path; pass it back to `tree.list` (folders) or `tab.open` (files). */
  readonly path: string;
  readonly type: 'folder' | 'file';
}

/** A subscribed document: its text at `version`, the authority's count of confirmed updates. */
export interface DocumentSync {
  readonly text: string;
  readonly version: number;
  readonly kind: string;
}

/**
 * `doc.subscribe`'s reply on the wire: the text (UTF-8) is fetched once from `textUrl`, so that
 * a 10 MB document is neither escaped into JSON by the host nor parsed out of it by the page
 * (ADR 48), nor sent as a frame on the socket (ADR 100). The page's connection puts it back:
 * callers see a `DocumentSync`.
 */
export interface DocumentSyncHeader {
  readonly version: number;
  readonly kind: string;
  /** A path on the page's own host, fetched with the page's token. */
  readonly textUrl: string;
}

/**
 * What a page says of the editor it shows: its tab, its mode, and its main
 * selection as offsets into the text at the collab `version` (ADR 19).
 */
export interface EditorReport {
  readonly tabId: string;
  readonly mode: 'source' | 'wysiwyg';
  readonly version: number;
  readonly from: number;
  readonly to: number;
  /** The editor has the keyboard focus (a page in the background keeps its selection). */
  readonly focused: boolean;
}

/** Every request the renderer may send, with its parameters and result. */
export interface Requests
  extends PanelRequests, RecoveryRequests, CommandRequests, QuickOpenRequests, SearchRequests, FilesRequests {
  /**
   * One level of the file list, which the host then follows on disk (a `tree.changed` push when
   * something in it is created, deleted or renamed) until the page folds it.
   */
  'tree.list': { params: { path: string }; result: { entries: TreeEntry[] } };
  /** The page folded the folder (or it left the list): the host stops following it. */
  'tree.fold': { params: { path: string }; result: Record<string, never> };
  /**
   * Opens the file in this page's window, or, when it is open already, shows it where it is:
   * `windowLabel` names that window (another page's, when not this one's) and `title` its tab.
   */
  'tab.open': { params: { path: string }; result: { tabId: string; windowLabel: string; title: string } };
  'tab.switch': { params: { tabId: string }; result: { activeTabId: string | null } };
  'tab.close': { params: { tabId: string; force?: boolean }; result: { closed: boolean } };
  'tab.save': { params: { tabId: string }; result: { saved: boolean } };
  /**
   * A person's answer to a conflict: keep the tab's text (saved over the file, if the file still
   * holds `diskSha256`) or take the version on disk.
   */
  'tab.resolveConflict': {
    params: { tabId: string; choice: 'keep-mine' | 'take-disk'; diskSha256: string | null };
    result: { dirty: boolean };
  };
  /** The page got the focus: its window becomes the person's window. */
  'window.focus': { params: Record<string, never>; result: { windowLabel: string } };
  /** The rail: show another workspace instance of this page's window. */
  'workspace.show': {
    params: { workspaceInstanceId: string };
    result: { workspaceInstanceId: string; activeTabId: string | null };
  };
  'doc.subscribe': { params: { tabId: string }; result: DocumentSyncHeader };
  'doc.unsubscribe': { params: { tabId: string }; result: Record<string, never> };
  /**
   * Proposes updates made against `version`. `accepted: false` means the editor
   * is behind: the updates it missed are on their way; rebase and push again.
   */
  'doc.push': {
    params: { tabId: string; version: number; updates: UpdateJson[] };
    result: { accepted: boolean };
  };
  /**
   * The shown editor's state, `null` when the page shows none. `accepted: false`
   * when made at an old version: the page reports again once it has caught up.
   */
  'editor.report': { params: { editor: EditorReport | null }; result: { accepted: boolean } };
}

export type RequestMethod = keyof Requests;
export type RequestParams<M extends RequestMethod> = Requests[M]['params'];
export type RequestResult<M extends RequestMethod> = Requests[M]['result'];

export type ClientMessage = {
  [M in RequestMethod]: { readonly id: number; readonly method: M; readonly params: RequestParams<M> };
}[RequestMethod];

/** Why the host refused a request: the seed's error codes (`STALE`, `INVALID_PATH`, …). */
export interface RefusalJson {
  readonly code: string;
  readonly message: string;
  /** What the host knows beyond the code, for the page to put in a person's words (and to offer what helps). */
  readonly reason?: RefusalReason;
}

export type RefusalReason =
  /** The file is not UTF-8 text; `picture`: its name says it is an image. */
  | { readonly kind: 'not-text'; readonly fileName: string; readonly picture: boolean }
  /** No plugin that runs opens the file; `plugins` are those that contribute document kinds but do not run. */
  | { readonly kind: 'no-plugin'; readonly fileName: string; readonly plugins: readonly StoppedKindPlugin[] };

/** A plugin that contributes document kinds and does not run: turned off, or on but failed to start. */
export interface StoppedKindPlugin {
  readonly id: string;
  readonly name: string;
  readonly enabled: boolean;
  /** The titles of the kinds it opens, e.g. `Markdown`. */
  readonly kinds: readonly string[];
}

export type ServerMessage =
  | { readonly type: 'reply'; readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly type: 'reply'; readonly id: number; readonly ok: false; readonly error: RefusalJson }
  | { readonly type: 'state'; readonly state: UiState }
  /** Something in a folder the page listed changed on disk: list it again. `path` is as the page sent it. */
  | { readonly type: 'tree.changed'; readonly path: string }
  | {
      readonly type: 'doc.updates';
      readonly tabId: string;
      /** The version these updates start from. */
      readonly version: number;
      readonly updates: readonly UpdateJson[];
    }
  | PanelMessage
  | RecoveryMessage
  | CommandMessage;
