import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type {
  CloseResult,
  HostHooks,
  OpenFileResult,
  SaveAsOptions,
  SwitchTabResult,
  TabRef,
  WindowState,
  Workbench,
  Disposable,
  ProvidedTabLabel,
  ProvidedTabState,
  TabProvider,
  TabProviderRegistration,
} from '@vmark/sdk';
import { ArgumentError, DomainError } from '@vmark/sdk';
import { inject, injectable } from 'inversify';
import { HostHooksToken } from '../tokens/host-tokens.js';
import { HostDocumentStore } from '../documents/document-store.js';
import { HostVault } from '../vault/host-vault.js';
import { isWithinRoot } from '../vault/path-scope.js';

interface WindowRecord {
  readonly label: string;
  /** Workspace instances of this window, in the order of the rail. */
  readonly instanceIds: string[];
  shownInstanceId: string | null;
  activeTabId: string | null;
}

interface InstanceRecord {
  readonly id: string;
  readonly root: string;
  readonly windowLabel: string;
  /** The tab last shown in this instance, shown again when the rail comes back to it. */
  lastTabId: string | null;
}

/** A workspace instance of a window, in the order of its rail. */
export interface WorkspaceInstanceState {
  readonly id: string;
  readonly root: string;
}

interface TabRecord extends TabRef {
  windowLabel: string;
  workspaceInstanceId: string | null;
}

/** Windows, their workspace instances and tabs, and which window has focus. */
@injectable()
export class HostWorkbench implements Workbench {
  #windows = new Map<string, WindowRecord>([['main', newWindow('main')]]);
  #instances = new Map<string, InstanceRecord>();
  /** Insertion order is tab order. */
  #tabs = new Map<string, TabRecord>();
  #focusedWindow = 'main';
  #nextTab = 1;
  readonly #providers = new Set<TabProvider>();
  readonly #providedListeners = new Set<() => void>();
  #nextWindow = 2;

  constructor(
    @inject(HostDocumentStore) private readonly documents: HostDocumentStore,
    @inject(HostVault) private readonly vault: HostVault,
    @inject(HostHooksToken) private readonly hooks: HostHooks,
  ) {}

  state(): readonly WindowState[] {
    return [...this.#windows.values()].map((window) => ({
      label: window.label,
      focused: window.label === this.#focusedWindow,
      activeWorkspaceInstanceId: window.shownInstanceId,
      tabs: this.#tabsOf(window.label).map((tab) => {
        const document = this.documents.get(tab.documentId);
        return {
          id: tab.id,
          filePath: document.filePath,
          title: titleOf(document.filePath),
          dirty: document.dirty,
          revision: document.revision,
          kind: document.kind,
          active: window.activeTabId === tab.id,
          visible:
            window.shownInstanceId === null ||
            tab.workspaceInstanceId === null ||
            tab.workspaceInstanceId === window.shownInstanceId,
        };
      }),
    }));
  }

  providedTabs(windowLabel: string): readonly ProvidedTabState[] {
    return [...this.#providers].flatMap((provider) => provider.tabs(windowLabel));
  }

  allocateTabId(): string {
    return `tab-${this.#nextTab++}`;
  }

  registerTabProvider(provider: TabProvider): TabProviderRegistration {
    this.#providers.add(provider);
    this.#tellProvidedChanged();
    return {
      changed: () => {
        if (this.#providers.has(provider)) this.#tellProvidedChanged();
      },
      dispose: () => {
        if (this.#providers.delete(provider)) this.#tellProvidedChanged();
      },
    };
  }

  /**
   * A window's provided tabs with how the tab strip shows each: its provider's label, else its
   * id, and whether the person may close it there (its provider closes tabs).
   */
  providedLabels(
    windowLabel: string,
  ): readonly { state: ProvidedTabState; label: ProvidedTabLabel; closable: boolean }[] {
    return [...this.#providers].flatMap((provider) =>
      provider.tabs(windowLabel).map((state) => ({
        state,
        label: provider.label?.(state.id) ?? { title: state.id, loading: false, badge: null, icon: null },
        closable: provider.close !== undefined,
      })),
    );
  }

  /** Whether a tab of this window is one a plugin keeps (not a document tab). */
  isProvided(windowLabel: string, tabId: string): boolean {
    return this.#providerOf(windowLabel, tabId) !== undefined;
  }

  /**
   * The person closes a provided tab from the tab strip: its provider decides and does it.
   * @throws DomainError `INVALID_TAB` for a tab no provider of the window keeps, or whose
   *   provider does not close tabs; else what the provider throws.
   */
  async closeProvided(windowLabel: string, tabId: string): Promise<void> {
    const provider = this.#providerOf(windowLabel, tabId);
    if (provider === undefined) throw new DomainError('INVALID_TAB', `Unknown tabId: ${tabId}`);
    if (provider.close === undefined) {
      throw new DomainError('INVALID_TAB', `tab ${tabId} is closed by the plugin that keeps it, not here`);
    }
    await provider.close(tabId);
  }

  #providerOf(windowLabel: string, tabId: string): TabProvider | undefined {
    return [...this.#providers].find((provider) => provider.tabs(windowLabel).some((t) => t.id === tabId));
  }

  /** Called when a provider's tabs may show differently (a title, a page loading, who drives). */
  onProvidedTabsChanged(listener: () => void): Disposable {
    this.#providedListeners.add(listener);
    return { dispose: () => this.#providedListeners.delete(listener) };
  }

  #tellProvidedChanged(): void {
    for (const listener of [...this.#providedListeners]) listener();
  }

  resolveTab(tabId?: string): TabRef {
    if (tabId !== undefined) return { ...this.#tab(tabId) };
    const active = this.#window(this.#focusedWindow).activeTabId;
    if (active === null) throw new DomainError('INVALID_TAB', 'No focused tab');
    return { ...this.#tabs.get(active)! };
  }

  /** The tab showing a document, if one does. */
  tabOfDocument(documentId: string): TabRef | undefined {
    const tab = [...this.#tabs.values()].find((t) => t.documentId === documentId);
    return tab && { ...tab };
  }

  async openWorkspace(
    folderPath: string,
    options: { windowLabel?: string } = {},
  ): Promise<{ workspaceInstanceId: string }> {
    const window = this.#window(options.windowLabel ?? this.#focusedWindow);
    const root = await this.vault.addWorkspaceRoot(folderPath);
    const existing = window.instanceIds.map((id) => this.#instances.get(id)!).find((i) => i.root === root);
    if (existing) return { workspaceInstanceId: existing.id };
    const instance: InstanceRecord = {
      id: `wsi-${randomId(6)}`,
      root,
      windowLabel: window.label,
      lastTabId: null,
    };
    this.#instances.set(instance.id, instance);
    window.instanceIds.push(instance.id);
    window.shownInstanceId ??= instance.id;
    for (const tab of this.#tabsOf(window.label)) {
      const filePath = this.documents.get(tab.documentId).filePath;
      if (tab.workspaceInstanceId === null && filePath !== null && isWithinRoot(filePath, root)) {
        tab.workspaceInstanceId = instance.id;
      }
    }
    this.hooks.workspaceOpened.call({ root, workspaceInstanceId: instance.id, windowLabel: window.label });
    return { workspaceInstanceId: instance.id };
  }

  newTab(options: { kind?: string; windowLabel?: string } = {}): { tabId: string } {
    const window = this.#window(options.windowLabel ?? this.#focusedWindow);
    const document = this.documents.createUntitled(options.kind);
    const tab = this.#addTab(window, document.id, window.shownInstanceId);
    return { tabId: tab.id };
  }

  /**
   * `consented`: a person named this file (on the command line, in a dialog), so
   * it opens even outside the current scope, and its folder joins the scope.
   */
  async openFile(
    filePath: string,
    options: { windowLabel?: string; consented?: boolean } = {},
  ): Promise<OpenFileResult> {
    const window = this.#window(options.windowLabel ?? this.#focusedWindow);
    const canonical = options.consented
      ? await this.vault.consentedFile(filePath)
      : await this.vault.resolve(filePath);
    const open = this.documents.findByPath(canonical);
    const openTab = open && [...this.#tabs.values()].find((t) => t.documentId === open.id);
    if (openTab) {
      return {
        tabId: openTab.id,
        workspaceInstanceId: openTab.workspaceInstanceId,
        activationChanged: false,
        workspaceSwitched: false,
      };
    }
    const document = await this.documents.open(canonical);
    this.vault.addDocumentFolder(canonical);
    const hadActiveTab = window.activeTabId !== null;
    const tab = this.#addTab(window, document.id, this.#instanceContaining(window, canonical));
    this.hooks.documentOpened.call({ document, tab: { ...tab } });
    return {
      tabId: tab.id,
      workspaceInstanceId: tab.workspaceInstanceId,
      activationChanged: !hadActiveTab,
      workspaceSwitched: false,
    };
  }

  async saveAs(
    tabId: string,
    filePath: string,
    options: SaveAsOptions = {},
  ): Promise<{ filePath: string; revision: string }> {
    const tab = this.#tab(tabId);
    const before = this.documents.get(tab.documentId).filePath;
    const target = await this.vault.resolve(filePath);
    const saved = await this.documents.saveAs(tab.documentId, target, options);
    if (before !== saved.filePath) {
      this.vault.addDocumentFolder(saved.filePath!);
      if (before !== null) this.vault.removeDocumentFolder(before);
      const window = this.#window(tab.windowLabel);
      tab.workspaceInstanceId = this.#instanceContaining(window, saved.filePath!) ?? tab.workspaceInstanceId;
    }
    return { filePath: saved.filePath!, revision: saved.revision };
  }

  /**
   * Files or folders the person moves (the file list): `perform` does it on disk while the open
   * documents under them wait, then their tabs follow — a new path, the same text and unsaved
   * changes — and the scope keeps their new folders. Returns the tabs that followed.
   */
  async followMoves<T>(
    moves: readonly { readonly from: string; readonly to: string }[],
    perform: () => Promise<T>,
  ): Promise<{ result: T; tabs: string[] }> {
    const { result, followed } = await this.documents.followMoves(moves, perform);
    const tabs: string[] = [];
    for (const { documentId, from, to } of followed) {
      this.vault.addDocumentFolder(to);
      this.vault.removeDocumentFolder(from);
      for (const tab of this.#tabs.values()) {
        if (tab.documentId !== documentId) continue;
        tabs.push(tab.id);
        tab.workspaceInstanceId =
          this.#instanceContaining(this.#window(tab.windowLabel), to) ?? tab.workspaceInstanceId;
      }
    }
    return { result, tabs };
  }

  /**
   * The tabs of documents at or under `entry` (a file or folder the person deleted): those
   * without unsaved changes close; those with them stay open and keep their text (the file is
   * gone: the tab says so, and saving writes it again). Returns how many stayed.
   */
  closeDeleted(entry: string): number {
    let kept = 0;
    for (const tab of [...this.#tabs.values()]) {
      const { filePath } = this.documents.get(tab.documentId);
      if (filePath === null || !isWithinRoot(filePath, entry)) continue;
      if (!this.close(tab.id).closed) kept++;
    }
    return kept;
  }

  close(tabId: string, options: { force?: boolean } = {}): CloseResult {
    const tab = this.#tab(tabId);
    const document = this.documents.get(tab.documentId);
    if (document.dirty && !options.force) return { closed: false, reason: 'DIRTY' };
    const window = this.#window(tab.windowLabel);
    const siblings = this.#tabsOf(window.label);
    this.#tabs.delete(tab.id);
    if (window.activeTabId === tab.id) {
      // The neighbour in the same workspace instance takes over, as in a tab strip.
      const index = siblings.findIndex((t) => t.id === tab.id);
      const rest = siblings.filter(
        (t) => t.id !== tab.id && t.workspaceInstanceId === tab.workspaceInstanceId,
      );
      const next = rest.find((_t, i) => i >= index) ?? rest.at(-1);
      window.activeTabId = next?.id ?? null;
    }
    if (![...this.#tabs.values()].some((t) => t.documentId === tab.documentId)) {
      this.documents.discard(tab.documentId);
      if (document.filePath !== null) this.vault.removeDocumentFolder(document.filePath);
    }
    return { closed: true };
  }

  switchTab(tabId: string): SwitchTabResult {
    const tab = this.#tab(tabId);
    const window = this.#window(tab.windowLabel);
    const switching = tab.workspaceInstanceId !== null && tab.workspaceInstanceId !== window.shownInstanceId;
    if (switching) window.shownInstanceId = tab.workspaceInstanceId;
    this.#activate(window, tab);
    // Read back from the model, so a switch that did not land says so.
    return {
      activated: window.activeTabId === tab.id,
      workspaceSwitched: switching && window.shownInstanceId === tab.workspaceInstanceId,
      workspaceInstanceId: window.shownInstanceId,
      activeTabId: window.activeTabId,
    };
  }

  focusWindow(windowLabel: string): void {
    this.#focusedWindow = this.#window(windowLabel).label;
  }

  /** Opens a new, empty window (`w-2`, `w-3`, …; labels are never reused) and returns its label. */
  openWindow(): string {
    const label = `w-${this.#nextWindow++}`;
    this.#windows.set(label, newWindow(label));
    return label;
  }

  hasWindow(label: string): boolean {
    return this.#windows.has(label);
  }

  /**
   * Closes a window whose page went away. Its clean tabs close; tabs with unsaved
   * changes move to `main`, so closing a window never loses work. `main` stays.
   * @throws ArgumentError for `main` or an unknown label.
   */
  closeWindow(label: string): void {
    const window = this.#window(label);
    if (label === 'main') throw new ArgumentError('The main window cannot be closed');
    const main = this.#window('main');
    for (const tab of this.#tabsOf(label)) {
      const document = this.documents.get(tab.documentId);
      if (!document.dirty) {
        this.close(tab.id);
        continue;
      }
      tab.windowLabel = 'main';
      tab.workspaceInstanceId =
        document.filePath === null ? null : this.#instanceContaining(main, document.filePath);
      main.activeTabId ??= tab.id;
    }
    for (const id of window.instanceIds) this.#instances.delete(id);
    this.#windows.delete(label);
    if (this.#focusedWindow === label) this.#focusedWindow = 'main';
  }

  /** A window's workspace instances, in the order of its rail. @throws ArgumentError for an unknown label. */
  workspaces(windowLabel: string): readonly WorkspaceInstanceState[] {
    return this.#window(windowLabel).instanceIds.map((id) => {
      const { root } = this.#instances.get(id)!;
      return { id, root };
    });
  }

  /**
   * Shows another workspace instance of the window (the rail): its tabs become
   * the visible ones, and the tab last shown there (or its first) the active one.
   * @throws ArgumentError when the instance is not one of the window's.
   */
  showWorkspace(
    windowLabel: string,
    workspaceInstanceId: string,
  ): { workspaceInstanceId: string; activeTabId: string | null } {
    const window = this.#window(windowLabel);
    const instance = this.#instances.get(workspaceInstanceId);
    if (instance?.windowLabel !== window.label) {
      throw new ArgumentError(
        `workspaceInstanceId ${JSON.stringify(workspaceInstanceId)} is not a workspace of window ${window.label}`,
      );
    }
    window.shownInstanceId = instance.id;
    const tabs = this.#tabsOf(window.label).filter((t) => t.workspaceInstanceId === instance.id);
    const next = tabs.find((t) => t.id === instance.lastTabId) ?? tabs[0];
    if (next) this.#activate(window, next);
    else window.activeTabId = null;
    return { workspaceInstanceId: instance.id, activeTabId: window.activeTabId };
  }

  #activate(window: WindowRecord, tab: TabRecord): void {
    window.activeTabId = tab.id;
    const instance =
      tab.workspaceInstanceId === null ? undefined : this.#instances.get(tab.workspaceInstanceId);
    if (instance) instance.lastTabId = tab.id;
  }

  #tab(tabId: string): TabRecord {
    const tab = this.#tabs.get(tabId);
    if (!tab) {
      const provided = [...this.#windows.keys()].some((label) =>
        this.providedTabs(label).some((t) => t.id === tabId),
      );
      if (provided) throw new DomainError('INVALID_TAB', `Tab ${tabId} shows no document`);
      throw new DomainError('INVALID_TAB', `Unknown tabId: ${tabId}`);
    }
    return tab;
  }

  #addTab(window: WindowRecord, documentId: string, workspaceInstanceId: string | null): TabRecord {
    const tab: TabRecord = {
      id: this.allocateTabId(),
      windowLabel: window.label,
      documentId,
      workspaceInstanceId,
    };
    this.#tabs.set(tab.id, tab);
    // A background open never changes what the person sees, unless nothing was shown.
    if (window.activeTabId === null) this.#activate(window, tab);
    return tab;
  }

  /** The deepest workspace root of the window that holds the file. */
  #instanceContaining(window: WindowRecord, filePath: string): string | null {
    const holders = window.instanceIds
      .map((id) => this.#instances.get(id)!)
      .filter((instance) => isWithinRoot(filePath, instance.root))
      .sort((a, b) => b.root.length - a.root.length);
    return holders[0]?.id ?? null;
  }

  #tabsOf(windowLabel: string): TabRecord[] {
    return [...this.#tabs.values()].filter((t) => t.windowLabel === windowLabel);
  }

  #window(label: string): WindowRecord {
    const window = this.#windows.get(label);
    if (!window) throw new ArgumentError(`windowLabel ${JSON.stringify(label)} does not name an open window`);
    return window;
  }
}

function newWindow(label: string): WindowRecord {
  return { label, instanceIds: [], shownInstanceId: null, activeTabId: null };
}

function titleOf(filePath: string | null): string {
  if (filePath === null) return 'Untitled';
  const base = path.basename(filePath);
  const ext = path.extname(base);
  return ext && ext !== base ? base.slice(0, -ext.length) : base;
}

function randomId(length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join('');
}
