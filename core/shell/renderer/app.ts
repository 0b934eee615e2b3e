import { COMMAND_PALETTE } from '../../protocol/builtin-commands.js';
import type { UiConflict, UiState, UiTab } from '../../protocol/protocol.js';
import { CommandPalette } from './commands/command-palette.js';
import { dispatchKeys } from './commands/key-dispatch.js';
import { type PageContext, PageCommands } from './commands/page-commands.js';
import { type ConflictChoice, ConflictBar } from './conflict-bar.js';
import { type Connection, RequestRefused } from './connection.js';
import { askUnsaved } from './dialogs/unsaved-dialog.js';
import { DocumentEditor, type EditorMode } from './editor/document-editor.js';
import { KindViews } from './editor/kind-views.js';
import { ProvidedTabView } from './editor/provided-view.js';
import { SelectionReporter } from './editor/selection-reporter.js';
import { PageAppearance } from './comfort/page-appearance.js';
import { spellCheck, StatusInfo } from './comfort/status-info.js';
import { FileTree } from './file-tree.js';
import { openFind, openReplace } from './find/find-panel.js';
import { refusalWords } from './refusal-words.js';
import { RecoveryNotice } from './recovery-notice.js';
import { startWorkbenchPanels } from './panels/workbench-panels.js';
import { QuickOpen } from './quick-open/quick-open.js';
import { type MatchPlace, SearchPanel } from './search/search-panel.js';
import type { Shell } from './shell.js';
import { TabStrip } from './tab-strip.js';
import { Toasts } from './toasts.js';
import { Emitter } from './emitter.js';
import type { PageLink, PagePlace, PageTab } from './page-link.js';
import { WindowIdentity } from './window-identity.js';
import { shownRoots, WorkspaceRail } from './workspace-rail.js';

const MODE_KEY = 'vmark.editorMode';

/**
 * The editor window: follows the host's workbench state (tabs, roots) and
 * keeps one editor per open tab, showing the active one.
 */
export class App {
  readonly #editors = new Map<string, Promise<DocumentEditor | null>>();
  readonly #tree: FileTree;
  readonly #tabs: TabStrip;
  readonly #toasts: Toasts;
  readonly #reporter: SelectionReporter;
  readonly #conflict: ConflictBar;
  readonly #views: KindViews;
  readonly #commands: PageCommands;
  readonly #appearance: PageAppearance;
  readonly #statusInfo: StatusInfo;
  #mode: EditorMode = localStorage.getItem(MODE_KEY) === 'source' ? 'source' : 'wysiwyg';
  #state: UiState | null = null;
  #shownTabId: string | null = null;
  /**
   * The tab a plugin keeps (a browser tab) the person picked in this page, shown until they pick
   * another tab or it goes: the host's active tab is always a document.
   */
  #picked: string | null = null;
  #provided: ProvidedTabView | null = null;
  /** The text editor shown now, which a plugin's page command (ADR 72) and find act on. */
  #shownEditor: DocumentEditor | null = null;
  /** A place to select once the tab's editor is shown (a search match the person clicked). */
  #reveal: { readonly tabId: string; readonly place: MatchPlace } | null = null;
  /** The tab this page shows, for the plugins' panels (host API 1.11.0). */
  readonly #activeTab = new Emitter<PageTab | null>();
  #activeTabNow: PageTab | null = null;
  /** What a plugin's panel or view may ask of this window. */
  readonly #link: PageLink = {
    open: (path, place) => this.#openAt(path, placeOf(place)),
    activeTab: () => this.#activeTabNow,
    onActiveTab: (listener) => this.#activeTab.on(listener),
  };

  constructor(
    private readonly shell: Shell,
    private readonly connection: Connection,
  ) {
    this.#toasts = new Toasts(shell.toasts);
    this.#reporter = new SelectionReporter(connection);
    this.#conflict = new ConflictBar(
      shell.conflictBar,
      (tabId, choice, conflict) => void this.#resolve(tabId, choice, conflict),
    );
    const refused = (error: unknown) => this.#refused(error);
    this.#views = new KindViews(connection, refused);
    this.#appearance = new PageAppearance(connection, document.documentElement, refused);
    // Spell check is read by each editor on its next update: give every open one an update.
    this.#appearance.onChange(() => {
      for (const editor of this.#editors.values()) void editor.then((e) => e?.view.dispatch({}));
    });
    this.#statusInfo = new StatusInfo(shell.statusbar);
    // A plugin turned off or on: every open tab takes the view its kind has now.
    this.#views.onChange(() => {
      void this.#showViews();
      this.#remountProvided();
    });
    this.#commands = new PageCommands(connection, () => this.#context(), {
      refused,
      note: (message) => this.#toasts.show(message, 'info'),
    });
    this.#handleCommands();
    this.#commands.handlePluginCommands((id) => {
      const editor = this.#shownEditor;
      const run = editor?.pageCommand(id);
      if (editor === null || run === undefined) return undefined;
      return () => {
        run();
        editor.view.focus();
      };
    });
    dispatchKeys(window, this.#commands);
    startWorkbenchPanels(shell, connection, this.#toasts, this.#commands, refused, this.#link);
    new RecoveryNotice(shell.conflictBar, connection, refused);
    const quickOpen = new QuickOpen(document.body, connection, refused);
    this.#commands.handle('vmark.quickOpen', () => quickOpen.open());
    const search = new SearchPanel(
      shell.panelSlot,
      connection,
      (path, place) => this.#openAt(path, place),
      (message) => this.#toasts.show(message, 'info'),
    );
    this.#commands.handle('vmark.search', () => search.open());
    this.#tree = new FileTree(shell.tree, connection, {
      open: (path) => void this.#open(path),
      refused,
      notify: (message, kind, actions) => this.#toasts.show(message, kind, actions),
      runCommand: (id) => void this.#commands.run(id),
    });
    // Ctrl/Cmd+N: a note in the folder picked in the file list (ADR 70).
    this.#commands.handle('vmark.newNote', () => this.#tree.create('file'));
    this.#commands.handle('vmark.newFolder', () => this.#tree.create('folder'));
    this.#commands.handle('vmark.revealFile', async () => {
      const tab = this.#state?.window.tabs.find((t) => t.id === this.#context().tabId);
      if (tab?.filePath) await this.#tree.reveal(tab.filePath);
    });
    // Each page is a window of its own, with its own rail (they follow the host's state themselves).
    new WindowIdentity(connection, shell.root);
    new WorkspaceRail(shell.rail, shell.root, connection, refused);
    this.#tabs = new TabStrip(shell.tabs, {
      select: (tabId) => this.#select(tabId),
      close: (tabId) => void this.#commands.run('vmark.closeTab', tabId),
    });
    for (const button of shell.modeButtons) {
      this.#commands.bind(button, button.dataset.mode === 'source' ? 'vmark.mode.source' : 'vmark.mode.live');
    }
    this.#showMode();
    connection.onState((state) => void this.#render(state));
    connection.onUpdates(({ tabId, version, updates }) => {
      void this.#editors.get(tabId)?.then((editor) => editor?.sync.receive(version, updates));
    });
    connection.onClose(() => {
      shell.status.textContent = 'Disconnected from vmark — restart it and reload this page';
      shell.root.classList.add('is-disconnected');
      this.#toasts.show('The connection to vmark was lost.');
    });
  }

  /** The editor's own commands (ADR 61): what its buttons, the palette and the person's keys run. */
  #handleCommands(): void {
    const commands = this.#commands;
    const palette = new CommandPalette(document.body, commands);
    commands.handle(COMMAND_PALETTE, () => palette.open());
    // A provided tab (a browser tab) is saved by its plugin, not here, and closed only where its plugin lets it.
    const documentTab = (tabId: string | undefined) => {
      const id = tabId ?? this.#context().tabId;
      const tab = this.#state?.window.tabs.find((t) => t.id === id);
      return tab?.provided === undefined ? tab : undefined;
    };
    commands.handle('vmark.save', async (tabId) => {
      const tab = documentTab(tabId);
      if (tab !== undefined) await this.#save(tab.id);
    });
    commands.handle('vmark.closeTab', async (tabId) => {
      const id = tabId ?? this.#context().tabId;
      const tab = this.#state?.window.tabs.find((t) => t.id === id);
      if (tab?.provided === undefined) {
        if (tab !== undefined) await this.#close(tab.id);
      } else if (tab.provided.closable) {
        // The host hands it to its plugin, which tears it down (ADR 56).
        await this.#request(() => this.connection.request('tab.close', { tabId: tab.id }));
      }
    });
    commands.handle('vmark.find', () => {
      if (this.#shownEditor !== null) openFind(this.#shownEditor.view);
    });
    commands.handle('vmark.replace', () => {
      if (this.#shownEditor !== null) openReplace(this.#shownEditor.view);
    });
    commands.handle('vmark.nextTab', () => this.#selectNext(1));
    commands.handle('vmark.previousTab', () => this.#selectNext(-1));
    commands.handle('vmark.mode.live', () => this.#setMode('wysiwyg'));
    commands.handle('vmark.mode.source', () => this.#setMode('source'));
    commands.handle('vmark.mode.toggle', () => this.#setMode(this.#mode === 'source' ? 'wysiwyg' : 'source'));
  }

  /** Where the person is, for a command's `when` and the tab a plugin's command acts on. */
  #context(): PageContext {
    const tab = this.#state === null ? undefined : this.#shownTabs(this.#state).find((t) => t.active);
    return {
      editorFocus: this.shell.editorHost.contains(document.activeElement),
      activeKind: tab?.kind ?? '',
      mode: this.#mode,
      tabId: tab?.id ?? null,
    };
  }

  /** The tab `step` places after (or before) the shown one in the strip, wrapping around. */
  #selectNext(step: 1 | -1): void {
    const tabs = this.#state === null ? [] : this.#shownTabs(this.#state).filter((t) => t.visible);
    if (tabs.length < 2) return;
    const at = tabs.findIndex((t) => t.active);
    const next = tabs[(at + step + tabs.length) % tabs.length];
    if (next !== undefined) this.#select(next.id);
  }

  #select(tabId: string): void {
    const tab = this.#state?.window.tabs.find((t) => t.id === tabId);
    if (tab?.provided !== undefined) {
      this.#picked = tabId;
    } else {
      this.#picked = null;
      void this.#request(() => this.connection.request('tab.switch', { tabId }));
    }
    if (this.#state !== null) void this.#render(this.#state);
  }

  /** The window's tabs as this page shows them: a picked provided tab is the active one. */
  #shownTabs(state: UiState): UiTab[] {
    const tabs = state.window.tabs;
    if (!tabs.some((t) => t.id === this.#picked)) this.#picked = null;
    if (this.#picked === null) return [...tabs];
    return tabs.map((t) => ({ ...t, active: t.id === this.#picked }));
  }

  async #render(state: UiState): Promise<void> {
    this.#state = state;
    this.#tree.showRoots(shownRoots(state));
    const tabs = this.#shownTabs(state);
    this.#tabs.show(tabs.filter((t) => t.visible));
    const open = new Set(state.window.tabs.map((t) => t.id));
    for (const [tabId, editor] of this.#editors) {
      if (open.has(tabId)) continue;
      this.#editors.delete(tabId);
      void editor.then((e) => e?.destroy());
    }
    // A document's kind may change with its text (ADR 6): its view follows.
    void this.#showViews();
    const active = tabs.find((t) => t.active) ?? null;
    this.#tree.markActive(active?.filePath ?? null);
    this.#showStatus(active);
    this.#conflict.show(active);
    await this.#show(active);
  }

  async #show(tab: UiTab | null): Promise<void> {
    if (tab?.id !== this.#shownTabId) {
      // Whatever a provided tab's view watched stops while it is not shown.
      this.#provided?.destroy();
      this.#provided = null;
    }
    this.#announce(tab);
    if (tab === null) {
      this.#shownTabId = null;
      this.#shownEditor = null;
      this.#statusInfo.show(null);
      this.#reporter.show(null);
      this.shell.editorHost.replaceChildren(this.shell.emptyState);
      return;
    }
    if (this.#shownTabId === tab.id) return;
    this.#shownTabId = tab.id;
    this.#shownEditor = null;
    if (tab.provided !== undefined) return this.#showProvided(tab);
    const editor = await this.#editorOf(tab);
    // Another tab may have been chosen while this one loaded.
    if (editor === null || this.#shownTabId !== tab.id) return;
    editor.setMode(this.#mode);
    this.shell.editorHost.replaceChildren(editor.dom);
    this.#shownEditor = editor;
    this.#statusInfo.show(editor);
    this.#reporter.show(editor);
    this.#showModeGroup(editor);
    editor.refresh();
    editor.view.focus();
    this.#revealIn(tab.id, editor);
  }

  /** Opens the file and selects the match in its editor, once that editor is shown. */
  async #openAt(path: string, place: MatchPlace | null): Promise<void> {
    let tabId: string;
    try {
      ({ tabId } = await this.connection.request('tab.open', { path }));
    } catch (error) {
      this.#refused(error);
      return;
    }
    if (place === null) return;
    this.#reveal = { tabId, place };
    // Already the shown tab: its editor will not be shown again, so the place is taken now.
    if (this.#shownTabId === tabId) {
      const editor = await this.#editors.get(tabId);
      if (editor) this.#revealIn(tabId, editor);
    }
  }

  #revealIn(tabId: string, editor: DocumentEditor): void {
    const reveal = this.#reveal;
    if (reveal?.tabId !== tabId) return;
    this.#reveal = null;
    const { doc } = editor.view.state;
    const line = doc.line(Math.min(Math.max(reveal.place.line, 1), doc.lines));
    const from = Math.min(line.from + reveal.place.column - 1, doc.length);
    const to = Math.min(from + reveal.place.length, doc.length);
    editor.view.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true });
    editor.view.focus();
  }

  async #showProvided(tab: UiTab): Promise<void> {
    this.#reporter.show(null);
    this.#statusInfo.show(null);
    this.shell.modeGroup.classList.add('is-disabled');
    const view = await ProvidedTabView.open(tab, this.connection, (kind) => this.#views.viewFor(kind));
    if (this.#shownTabId !== tab.id || this.#provided !== null) return view.destroy();
    this.#provided = view;
    this.shell.editorHost.replaceChildren(view.dom);
  }

  /** Tells the panels which tab the window shows, when that changes. */
  #announce(tab: UiTab | null): void {
    const next: PageTab | null = tab === null ? null : { id: tab.id, filePath: tab.filePath, kind: tab.kind };
    const now = this.#activeTabNow;
    if (now?.id === next?.id && now?.filePath === next?.filePath && now?.kind === next?.kind) return;
    this.#activeTabNow = next;
    this.#activeTab.emit(next);
  }

  /** Each open tab's editor takes the view its kind has now; the shown one's mode switch follows. */
  async #showViews(): Promise<void> {
    const tabs = new Map(this.#state?.window.tabs.map((t) => [t.id, t]) ?? []);
    await Promise.all(
      [...this.#editors].map(async ([tabId, opening]) => {
        const editor = await opening;
        const kind = tabs.get(tabId)?.kind;
        if (editor === null || kind === undefined) return;
        await editor.showView(this.#views.viewFor(kind));
        if (tabId === this.#shownTabId) this.#showModeGroup(editor);
      }),
    );
  }

  /** A shown provided tab takes the view its kind has now (its plugin turned off or on). */
  #remountProvided(): void {
    const tab = this.#provided?.tab;
    if (tab === undefined) return;
    this.#provided?.destroy();
    this.#provided = null;
    this.#shownTabId = null;
    void this.#show(tab);
  }

  /** The Live/Source switch is off for a kind with no Live mode. */
  #showModeGroup(editor: DocumentEditor): void {
    this.shell.modeGroup.classList.toggle('is-disabled', !editor.hasLiveMode);
  }

  #editorOf(tab: UiTab): Promise<DocumentEditor | null> {
    let editor = this.#editors.get(tab.id);
    if (!editor) {
      const hooks = {
        refused: (error: unknown) => this.#refused(error),
        extensions: spellCheck(() => this.#appearance.current),
        link: this.#link,
      };
      const viewFor = (kind: string) => this.#views.viewFor(kind);
      editor = DocumentEditor.open(tab, this.connection, hooks, this.#mode, viewFor).catch(
        (error: unknown) => {
          this.#refused(error);
          this.#editors.delete(tab.id);
          return null;
        },
      );
      this.#editors.set(tab.id, editor);
    }
    return editor;
  }

  /**
   * Opens a file from the list. One open in another window is shown there, and this window says
   * where (a browser does not let a page raise another); one that no running plugin opens says
   * which plugin would, and offers to turn it on.
   */
  async #open(path: string): Promise<void> {
    try {
      const opened = await this.connection.request('tab.open', { path });
      const here = this.#state?.window.label;
      if (here !== undefined && opened.windowLabel !== here) {
        this.#toasts.show(
          `“${opened.title}” is open in window ${opened.windowLabel}: it is shown there.`,
          'info',
        );
      }
    } catch (error) {
      const off =
        error instanceof RequestRefused && error.reason?.kind === 'no-plugin'
          ? error.reason.plugins.filter((p) => !p.enabled)
          : [];
      this.#toasts.show(
        refusalWords(error),
        'error',
        off.map((plugin) => ({
          label: `Turn on ${plugin.name}`,
          run: () => void this.#turnOnAndOpen(plugin.id, path),
        })),
      );
    }
  }

  async #turnOnAndOpen(pluginId: string, path: string): Promise<void> {
    const turnedOn = await this.#request(() =>
      this.connection.request('plugins.setEnabled', { id: pluginId, enabled: true }),
    );
    if (turnedOn) await this.#open(path);
  }

  /** Saves the tab (its editor's pending changes first); true when it is saved, else the refusal is shown. */
  async #save(tabId: string): Promise<boolean> {
    const editor = await this.#editors.get(tabId);
    const saved = await this.#request(async () => {
      if (editor) await editor.save();
      else return (await this.connection.request('tab.save', { tabId })).saved;
      return true;
    });
    return saved === true;
  }

  async #resolve(tabId: string, choice: ConflictChoice, conflict: UiConflict): Promise<void> {
    if (choice === 'close') {
      await this.#request(() => this.connection.request('tab.close', { tabId, force: true }));
      return;
    }
    await this.#request(() =>
      this.connection.request('tab.resolveConflict', { tabId, choice, diskSha256: conflict.diskSha256 }),
    );
  }

  /** Closes the tab; one with unsaved changes asks first: Save, Discard or Cancel. */
  async #close(tabId: string): Promise<void> {
    // Keystrokes still on their way count as unsaved changes too.
    await (await this.#editors.get(tabId))?.sync.flushed();
    const result = await this.#request(() => this.connection.request('tab.close', { tabId }));
    const tab = this.#state?.window.tabs.find((t) => t.id === tabId);
    if (result?.closed !== false || tab === undefined) return;
    const answer = await askUnsaved(document.body, tab);
    if (answer === 'discard') {
      await this.#request(() => this.connection.request('tab.close', { tabId, force: true }));
    } else if (answer === 'save' && (await this.#save(tabId))) {
      // Changed again while it was saved: asked again, never closed with those changes lost.
      await this.#close(tabId);
    }
  }

  #setMode(mode: EditorMode): void {
    this.#mode = mode;
    localStorage.setItem(MODE_KEY, mode);
    this.#showMode();
    const active = this.#shownTabId === null ? undefined : this.#editors.get(this.#shownTabId);
    void active?.then((editor) => {
      editor?.setMode(mode);
      editor?.view.focus();
    });
    for (const [tabId, editor] of this.#editors) {
      if (tabId !== this.#shownTabId) void editor.then((e) => e?.setMode(mode));
    }
  }

  #showMode(): void {
    this.shell.root.dataset.mode = this.#mode;
    for (const button of this.shell.modeButtons) {
      button.setAttribute('aria-pressed', String(button.dataset.mode === this.#mode));
    }
  }

  /** The tab's file, relative to the workspace folder that holds it, and whether it is saved. */
  #showStatus(tab: UiTab | null): void {
    if (tab === null) {
      this.shell.status.textContent = '';
      return;
    }
    if (tab.provided !== undefined) {
      this.shell.status.textContent = tab.title;
      return;
    }
    const root = this.#state?.roots.find((r) => tab.filePath?.startsWith(r.path + '/'));
    const shown =
      tab.filePath === null
        ? 'Untitled'
        : root
          ? `${root.name}/${tab.filePath.slice(root.path.length + 1)}`
          : tab.filePath;
    this.shell.status.textContent = tab.dirty ? `${shown} — unsaved` : shown;
  }

  async #request<T>(run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      this.#refused(error);
      return undefined;
    }
  }

  #refused(error: unknown): void {
    this.#toasts.show(refusalWords(error));
  }
}

/** A page module's place, made whole (and sane: it is a plugin's word). */
function placeOf(place: PagePlace | undefined): MatchPlace | null {
  if (place === undefined) return null;
  const whole = (n: unknown, least: number) =>
    typeof n === 'number' && Number.isFinite(n) ? Math.max(least, Math.floor(n)) : least;
  return { line: whole(place.line, 1), column: whole(place.column, 1), length: whole(place.length, 0) };
}
