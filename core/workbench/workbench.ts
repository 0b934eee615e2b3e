import { randomBytes } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type {
  CloseResult,
  HostHooks,
  OpenFileResult,
  SwitchTabResult,
  TabRef,
  WindowState,
  Workbench,
} from '@vmark/sdk';
import { ArgumentError, DomainError, isDomainError } from '@vmark/sdk';
import { inject, injectable } from 'inversify';
import { HostHooksToken } from '../container/host-tokens.js';
import { HostDocumentStore } from '../documents/document-store.js';
import { HostVault } from '../vault/host-vault.js';
import { invalidPath, isWithinRoot, lexicalResolve } from '../vault/path-scope.js';

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
}

interface TabRecord extends TabRef {
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
    const instance: InstanceRecord = { id: `wsi-${randomId(6)}`, root, windowLabel: window.label };
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
    const document = this.documents.createUntitled(options.kind ?? 'markdown');
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
    const canonical = options.consented ? await canonicalFile(filePath) : await this.vault.resolve(filePath);
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

  async saveAs(tabId: string, filePath: string): Promise<{ filePath: string; revision: string }> {
    const tab = this.#tab(tabId);
    const before = this.documents.get(tab.documentId).filePath;
    const target = await this.vault.resolve(filePath);
    const saved = await this.documents.saveAs(tab.documentId, target);
    if (before !== saved.filePath) {
      this.vault.addDocumentFolder(saved.filePath!);
      if (before !== null) this.vault.removeDocumentFolder(before);
      const window = this.#window(tab.windowLabel);
      tab.workspaceInstanceId = this.#instanceContaining(window, saved.filePath!) ?? tab.workspaceInstanceId;
    }
    return { filePath: saved.filePath!, revision: saved.revision };
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
    window.activeTabId = tab.id;
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

  #tab(tabId: string): TabRecord {
    const tab = this.#tabs.get(tabId);
    if (!tab) throw new DomainError('INVALID_TAB', `Unknown tabId: ${tabId}`);
    return tab;
  }

  #addTab(window: WindowRecord, documentId: string, workspaceInstanceId: string | null): TabRecord {
    const tab: TabRecord = {
      id: `tab-${this.#nextTab++}`,
      windowLabel: window.label,
      documentId,
      workspaceInstanceId,
    };
    this.#tabs.set(tab.id, tab);
    // A background open never changes what the person sees, unless nothing was shown.
    window.activeTabId ??= tab.id;
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

async function canonicalFile(filePath: string): Promise<string> {
  try {
    return await realpath(lexicalResolve(filePath, process.cwd()));
  } catch (error) {
    if (isDomainError(error)) throw error;
    throw invalidPath(filePath, 'does not exist');
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
