import type { Disposable } from '../lifecycle.js';
import type { ChangeOrigin } from './documents.js';

/** One tab as `session.get_state` reports it. */
export interface TabState {
  readonly id: string;
  readonly filePath: string | null;
  readonly title: string;
  readonly dirty: boolean;
  readonly revision: string;
  readonly kind: string;
  /** This tab is its window's current tab. */
  readonly active: boolean;
  /** This tab belongs to the workspace instance its window shows (or the rail is off). */
  readonly visible: boolean;
}

export interface WindowState {
  readonly label: string;
  readonly focused: boolean;
  /** The workspace instance the window shows; `null` when it shows none (every tab visible). */
  readonly activeWorkspaceInstanceId: string | null;
  readonly tabs: readonly TabState[];
}

/**
 * A tab that shows no document (a browser tab), as the plugin that keeps it reports it in
 * `session.get_state`: `id`, `kind` and `active`, and whatever fields its kind has.
 */
export interface ProvidedTabState {
  readonly id: string;
  readonly kind: string;
  readonly active: boolean;
  readonly [field: string]: unknown;
}

/** How the editor's tab strip shows a provided tab (its `session.get_state` fields stay as they are). */
export interface ProvidedTabLabel {
  readonly title: string;
  readonly loading: boolean;
  /** Who drives it, in a word or two the strip shows beside the title, e.g. "AI sandbox". */
  readonly badge: string | null;
  /** A small picture for it: a `data:image/…` URL (the editor page loads nothing from elsewhere). */
  readonly icon: string | null;
}

/** A plugin's tabs, listed per window. */
export interface TabProvider {
  tabs(windowLabel: string): readonly ProvidedTabState[];
  /** How the tab strip shows one of them; without it, the strip shows its id. */
  label?(tabId: string): ProvidedTabLabel;
  /**
   * The person closes one of them from the editor's tab strip (host API 1.9.0); without it, the
   * strip gives its tabs no close button. Resolve once it is gone; what it throws is the answer.
   */
  close?(tabId: string): void | Promise<void>;
}

/** A registered tab provider: `changed()` tells the editor windows to show its tabs again. */
export interface TabProviderRegistration extends Disposable {
  changed(): void;
}

/** Where a tab lives and which document it shows. */
export interface TabRef {
  readonly id: string;
  readonly windowLabel: string;
  readonly documentId: string;
  readonly workspaceInstanceId: string | null;
}

export interface OpenFileResult {
  readonly tabId: string;
  readonly workspaceInstanceId: string | null;
  /** The window's active tab changed (false for a background open). */
  readonly activationChanged: boolean;
  readonly workspaceSwitched: boolean;
}

export interface SwitchTabResult {
  /** Read back after the switch: the tab is now its window's active tab. */
  readonly activated: boolean;
  /** The window now shows another workspace instance (tell the person). */
  readonly workspaceSwitched: boolean;
  readonly workspaceInstanceId: string | null;
  readonly activeTabId: string | null;
}

/** What a `saveAs` to another path would do, as the host found it just before: see `SaveAsOptions`. */
export interface SaveAsTarget {
  /** The canonical path the document would be saved to. */
  readonly path: string;
  /** The text file there now, which the save would replace; null when there is none (a new file). */
  readonly replaces: { readonly bytes: number; readonly sha256: string } | null;
}

export interface SaveAsOptions {
  /**
   * Called before anything is written to another path: resolve to go ahead, throw to refuse
   * (what it throws is the call's answer). The host then does exactly what it described or
   * nothing: it replaces a file only if it still holds the bytes described (else `STALE`),
   * creates one only where there still is none, and keeps the replaced text in the AI edit
   * history. A file that is not UTF-8 text, or is open in another tab, is refused before.
   */
  readonly confirm?: (target: SaveAsTarget) => Promise<void>;
  /** Who saves: the AI edit history records a replaced file under it. */
  readonly origin?: ChangeOrigin;
}

export type CloseResult = { readonly closed: true } | { readonly closed: false; readonly reason: 'DIRTY' };

export interface Workbench {
  /** The windows with their document tabs; `providedTabs` has the others. */
  state(): readonly WindowState[];
  /** The tabs plugins keep in a window (browser tabs), after its document tabs. */
  providedTabs(windowLabel: string): readonly ProvidedTabState[];
  /** A new tab id from the one sequence every tab shares (`tab-N`), for a tab a plugin keeps. */
  allocateTabId(): string;
  /** Lists a plugin's tabs in the windows' state until disposed. */
  registerTabProvider(provider: TabProvider): TabProviderRegistration;
  /**
   * The tab with this id, or the focused window's active tab when omitted.
   * @throws DomainError `INVALID_TAB`.
   */
  resolveTab(tabId?: string): TabRef;
  /** Opens a workspace root in a window (the caller has already obtained consent). */
  openWorkspace(
    folderPath: string,
    options?: { windowLabel?: string },
  ): Promise<{ workspaceInstanceId: string }>;
  /** Creates an untitled tab of the given kind (default: the lowest-priority kind, `markdown`). */
  newTab(options?: { kind?: string; windowLabel?: string }): { tabId: string };
  /**
   * Opens a file inside the current scope as a background tab, or returns the tab
   * that already shows it. The first tab of an empty window becomes its active tab.
   * @throws DomainError `INVALID_PATH`.
   */
  openFile(filePath: string, options?: { windowLabel?: string }): Promise<OpenFileResult>;
  /**
   * Saves the tab's document to another path inside the scope, which becomes its file (to
   * its own path: a plain save). Without `options.confirm` it never overwrites an existing
   * file; with it, the caller is told first what the save would do and decides.
   * @throws DomainError `INVALID_PATH`, `INVALID_TAB`, `READ_ONLY`, `STALE` (the target
   *   changed after `confirm` was told of it), or what `confirm` throws.
   */
  saveAs(
    tabId: string,
    filePath: string,
    options?: SaveAsOptions,
  ): Promise<{ readonly filePath: string; readonly revision: string }>;
  /** Closes a tab; a dirty one only with `force`. @throws DomainError `INVALID_TAB`. */
  close(tabId: string, options?: { force?: boolean }): CloseResult;
  /** Makes a tab its window's active tab, showing its workspace instance. @throws DomainError `INVALID_TAB`. */
  switchTab(tabId: string): SwitchTabResult;
  /** Gives a window the focus. @throws ArgumentError for an unknown label. */
  focusWindow(windowLabel: string): void;
}
