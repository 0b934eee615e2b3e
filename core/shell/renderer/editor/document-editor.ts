import { collab } from './collab-state.js';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { Compartment, EditorState, type Extension, Transaction } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';
import type { PageOpen } from '@vmark/sdk';
import type { DocumentSync, UiTab } from '../../../protocol/protocol.js';
import type { Connection } from '../connection.js';
import { findInFile } from '../find/find-panel.js';
import { element } from '../element.js';
import { Emitter, type Unsubscribe } from '../emitter.js';
import { CollabSync } from './collab-sync.js';
import { blinkingCursor } from './cursor-blink.js';
import { parseReach } from './parse-reach.js';
import type { PageKindView, ShownView } from './kind-views.js';
import { textViewApi } from './text-view-api.js';
import { editorTheme } from './theme.js';
import { viewChannel } from './view-channel.js';

export type EditorMode = 'source' | 'wysiwyg';

export interface EditorHooks {
  readonly refused: (error: unknown) => void;
  /** The page's own additions to every text editor (spell check as the settings say, ADR 72). */
  readonly extensions?: Extension;
  /** What a text view may ask of the window: open a file at a place. */
  readonly link: PageOpen;
}

/**
 * One tab's CodeMirror editor, kept while the tab is open so that its undo
 * history and scroll position survive switching tabs. What the kind adds — its
 * language, its Live mode, or a view of its own — comes from the kind's view
 * (ADR 35) and can change while the tab is open (its plugin turned off or on).
 */
export class DocumentEditor {
  readonly view: EditorView;
  /** What the page shows for the tab: a notice, then the text editor or a custom view. */
  readonly dom: HTMLElement;
  readonly #notice: HTMLElement;
  readonly #custom: HTMLElement;
  readonly #mode = new Compartment();
  readonly #kindView = new Compartment();
  #shown: ShownView;
  #modeName: EditorMode;
  #sync: CollabSync;
  readonly #viewUpdated = new Emitter<void>();
  readonly #textChanged = new Emitter<void>();
  readonly #refresh = new Emitter<void>();
  #unmount: (() => void) | undefined;
  /** Each `showView` gets a number; a view that loads after a newer one was asked for is dropped. */
  #viewRequest = 0;

  private constructor(
    readonly tab: UiTab,
    private readonly connection: Connection,
    private readonly hooks: EditorHooks,
    start: DocumentSync,
    mode: EditorMode,
    shown: ShownView,
  ) {
    this.#shown = shown;
    this.#modeName = mode;
    this.view = new EditorView({ state: this.#state(start) });
    this.view.dom.dataset.tabId = tab.id;
    this.#notice = element('p', 'view-notice');
    this.#custom = element('div', 'kind-view');
    this.dom = element('div', 'document-view');
    this.dom.append(this.#notice, this.#custom, this.view.dom);
    this.#sync = this.#newSync();
    this.#present();
  }

  /** Subscribes to the tab's document and builds its editor with its kind's view. */
  static async open(
    tab: UiTab,
    connection: Connection,
    hooks: EditorHooks,
    mode: EditorMode,
    viewFor: (kind: string) => Promise<ShownView>,
  ): Promise<DocumentEditor> {
    const start = await connection.subscribe(tab.id);
    const shown = await viewFor(start.kind);
    return new DocumentEditor(tab, connection, hooks, start, mode, shown);
  }

  /** Swaps the kind's view for the one that now applies, once it has loaded (the latest asked wins). */
  async showView(loading: Promise<ShownView>): Promise<void> {
    const request = ++this.#viewRequest;
    const shown = await loading;
    if (request !== this.#viewRequest || shown.key === this.#shown.key) return;
    this.#shown = shown;
    this.view.dispatch({
      effects: [
        this.#kindView.reconfigure(this.#kindExtension()),
        this.#mode.reconfigure(this.#modeExtension(this.#modeName)),
      ],
    });
    this.#present();
    this.#viewUpdated.emit();
  }

  /** Whether the tab has a Live (wysiwyg) mode: its kind's text view brings one. */
  get hasLiveMode(): boolean {
    return this.#textView?.live !== undefined;
  }

  /** The kind's text view's handler of a plugin's `runsIn: page` command, run on this editor (ADR 72). */
  pageCommand(id: string): (() => boolean) | undefined {
    const commands = this.#textView?.commands;
    const handler = commands !== undefined && Object.hasOwn(commands, id) ? commands[id] : undefined;
    return handler === undefined ? undefined : () => handler(this.view);
  }

  /** The tab is shown again: a custom view may draw again. */
  refresh(): void {
    this.#refresh.emit();
  }

  get sync(): CollabSync {
    return this.#sync;
  }

  /** The mode the editor is really in: a kind without a Live mode is always in source. */
  get mode(): EditorMode {
    return this.hasLiveMode ? this.#modeName : 'source';
  }

  /** Every update of the view: changes, selection, focus, mode. */
  onViewUpdate(listener: () => void): Unsubscribe {
    return this.#viewUpdated.on(listener);
  }

  setMode(mode: EditorMode): void {
    this.#modeName = mode;
    this.view.dispatch({ effects: this.#mode.reconfigure(this.#modeExtension(mode)) });
  }

  /** Pushes what is still pending, then asks the host to save. */
  async save(): Promise<void> {
    await this.#sync.flushed();
    await this.connection.request('tab.save', { tabId: this.tab.id });
  }

  /** Starts over from the host's text (after a refused change or a missed update). */
  async resync(): Promise<void> {
    const start = await this.connection.subscribe(this.tab.id);
    this.view.setState(this.#state(start));
    this.#sync = this.#newSync();
    // A new state is no update: tell the listeners (the selection reporter) all the same.
    this.#viewUpdated.emit();
  }

  destroy(): void {
    this.#unmountCustom();
    void this.connection.request('doc.unsubscribe', { tabId: this.tab.id }).catch(() => undefined);
    this.view.destroy();
  }

  #newSync(): CollabSync {
    return new CollabSync(
      this.view,
      this.tab.id,
      this.connection,
      () => void this.resync().catch(this.hooks.refused),
      this.hooks.refused,
    );
  }

  #state(start: DocumentSync): EditorState {
    return EditorState.create({
      doc: start.text,
      extensions: [
        // Positions are offsets into the file as the host holds it: CRLF stays two characters.
        EditorState.lineSeparator.of('\n'),
        collab({ startVersion: start.version }),
        history(),
        blinkingCursor(),
        EditorView.lineWrapping,
        placeholder('Start writing…'),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        this.#kindView.of(this.#kindExtension()),
        editorTheme,
        findInFile(),
        parseReach,
        this.hooks.extensions ?? [],
        this.#mode.of(this.#modeExtension(this.#modeName)),
        EditorView.updateListener.of((update) => {
          if (update.transactions.some((tr) => tr.docChanged && !tr.annotation(Transaction.remote))) {
            this.#sync.changed();
          }
          if (update.docChanged) this.#textChanged.emit();
          this.#viewUpdated.emit();
        }),
      ],
    });
  }

  #modeExtension(mode: EditorMode): Extension {
    return (mode === 'wysiwyg' && this.#textView?.live) || [];
  }

  get #textView(): (PageKindView & { type: 'text' }) | undefined {
    return this.#shown.view?.type === 'text' ? this.#shown.view : undefined;
  }

  /** The kind's extensions; with no text view, the text is shown as it is and cannot be changed here. */
  #kindExtension(): Extension {
    const text = this.#textView;
    if (text !== undefined) {
      // The images and settings of every text view, this view's channel to its plugin, links.
      const images = textViewApi(this.connection);
      return text.extensions(this.#tabInfo(), {
        imageUrl: (target) => images.imageUrl(target),
        saveImage: (note, image, folder) => images.saveImage(note, image, folder),
        setting: (key) => images.setting(key),
        onSettingsChange: (listener) => images.onSettingsChange(listener),
        ...viewChannel(this.connection, this.#shown.pluginId ?? '', this.tab.kind),
        open: (filePath, place) => this.hooks.link.open(filePath, place),
      });
    }
    return [EditorState.readOnly.of(true), EditorView.editable.of(false)];
  }

  #tabInfo(): { id: string; title: string; filePath: string | null; kind: string } {
    return { id: this.tab.id, title: this.tab.title, filePath: this.tab.filePath, kind: this.tab.kind };
  }

  /** The notice, and the custom view or the text editor, as the shown view wants them. */
  #present(): void {
    this.#notice.textContent = this.#shown.notice ?? '';
    this.#notice.hidden = this.#shown.notice === null;
    this.#unmountCustom();
    const custom = this.#shown.view?.type === 'custom' ? this.#shown.view : undefined;
    this.view.dom.hidden = custom !== undefined;
    this.#custom.hidden = custom === undefined;
    this.dom.dataset.view = custom ? 'custom' : this.#textView ? 'text' : 'none';
    if (custom === undefined) return;
    try {
      const cleanup = custom.mount(this.#custom, {
        tab: this.#tabInfo(),
        text: () => this.view.state.doc.toString(),
        onTextChange: (listener) => this.#textChanged.on(listener),
        onRefresh: (listener) => this.#refresh.on(listener),
        ...viewChannel(this.connection, this.#shown.pluginId ?? '', this.tab.kind),
      });
      this.#unmount = typeof cleanup === 'function' ? cleanup : undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#notice.textContent = `The view of this tab failed to start: ${message}`;
      this.#notice.hidden = false;
    }
  }

  /** A view's own teardown must not stop the editor swapping or closing it. */
  #unmountCustom(): void {
    const unmount = this.#unmount;
    this.#unmount = undefined;
    try {
      unmount?.();
    } catch (error) {
      console.error('A kind view failed to clean up', error);
    }
    this.#custom.replaceChildren();
  }
}
