import type { Disposable } from '../lifecycle.js';

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

/** A plugin's tabs, listed per window. */
export interface TabProvider {
  tabs(windowLabel: string): readonly ProvidedTabState[];
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

export type CloseResult = { readonly closed: true } | { readonly closed: false; readonly reason: 'DIRTY' };

export interface Workbench {
  /** The windows with their document tabs; `providedTabs` has the others. */
  state(): readonly WindowState[];
  /** The tabs plugins keep in a window (browser tabs), after its document tabs. */
  providedTabs(windowLabel: string): readonly ProvidedTabState[];
  /** A new tab id from the one sequence every tab shares (`tab-N`), for a tab a plugin keeps. */
  allocateTabId(): string;
  /** Lists a plugin's tabs in the windows' state until disposed. */
  registerTabProvider(provider: TabProvider): Disposable;
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
   * Saves the tab's document to a new path inside the scope (the caller has the
   * person's consent where one is needed). Never overwrites another existing file.
   * @throws DomainError `INVALID_PATH`, `INVALID_TAB`, `READ_ONLY`.
   */
  saveAs(tabId: string, filePath: string): Promise<{ readonly filePath: string; readonly revision: string }>;
  /** Closes a tab; a dirty one only with `force`. @throws DomainError `INVALID_TAB`. */
  close(tabId: string, options?: { force?: boolean }): CloseResult;
  /** Makes a tab its window's active tab, showing its workspace instance. @throws DomainError `INVALID_TAB`. */
  switchTab(tabId: string): SwitchTabResult;
  /** Gives a window the focus. @throws ArgumentError for an unknown label. */
  focusWindow(windowLabel: string): void;
}
