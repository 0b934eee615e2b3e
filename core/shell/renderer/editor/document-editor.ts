import { collab } from '@codemirror/collab';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { Compartment, EditorState, type Extension, Transaction } from '@codemirror/state';
import { drawSelection, EditorView, keymap, placeholder } from '@codemirror/view';
import type { DocumentSync, UiTab } from '../../../protocol/protocol.js';
import type { Connection } from '../connection.js';
import { Emitter, type Unsubscribe } from '../emitter.js';
import { CollabSync } from './collab-sync.js';
import { documentLanguage, hasLivePreview } from './document-language.js';
import { livePreview } from './live-preview.js';
import { editorTheme } from './theme.js';

export type EditorMode = 'source' | 'wysiwyg';

export interface EditorHooks {
  readonly save: () => void;
  readonly refused: (error: unknown) => void;
}

/**
 * One tab's CodeMirror editor, kept while the tab is open so that its undo
 * history and scroll position survive switching tabs.
 */
export class DocumentEditor {
  readonly view: EditorView;
  readonly #mode = new Compartment();
  /** Source only: the kind has no live preview (YAML, plain text). */
  readonly #sourceOnly: boolean;
  #modeName: EditorMode;
  #sync: CollabSync;
  readonly #viewUpdated = new Emitter<void>();

  private constructor(
    readonly tab: UiTab,
    private readonly connection: Connection,
    private readonly hooks: EditorHooks,
    start: DocumentSync,
    mode: EditorMode,
  ) {
    this.#sourceOnly = !hasLivePreview(start.kind);
    this.#modeName = mode;
    this.view = new EditorView({ state: this.#state(start) });
    this.view.dom.dataset.tabId = tab.id;
    this.#sync = this.#newSync();
  }

  /** Subscribes to the tab's document and builds its editor. */
  static async open(
    tab: UiTab,
    connection: Connection,
    hooks: EditorHooks,
    mode: EditorMode,
  ): Promise<DocumentEditor> {
    const start = await connection.request('doc.subscribe', { tabId: tab.id });
    return new DocumentEditor(tab, connection, hooks, start, mode);
  }

  get sync(): CollabSync {
    return this.#sync;
  }

  /** The mode the editor is really in: workflow YAML has no live preview. */
  get mode(): EditorMode {
    return this.#sourceOnly ? 'source' : this.#modeName;
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
    const start = await this.connection.request('doc.subscribe', { tabId: this.tab.id });
    this.view.setState(this.#state(start));
    this.#sync = this.#newSync();
    // A new state is no update: tell the listeners (the selection reporter) all the same.
    this.#viewUpdated.emit();
  }

  destroy(): void {
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
        drawSelection(),
        EditorView.lineWrapping,
        placeholder('Start writing…'),
        keymap.of([
          { key: 'Mod-s', preventDefault: true, run: () => (this.hooks.save(), true) },
          ...defaultKeymap,
          ...historyKeymap,
          indentWithTab,
        ]),
        documentLanguage(start.kind, this.tab.filePath),
        editorTheme,
        this.#mode.of(this.#modeExtension(this.#modeName)),
        EditorView.updateListener.of((update) => {
          if (update.transactions.some((tr) => tr.docChanged && !tr.annotation(Transaction.remote))) {
            this.#sync.changed();
          }
          this.#viewUpdated.emit();
        }),
      ],
    });
  }

  #modeExtension(mode: EditorMode): Extension {
    return mode === 'wysiwyg' && !this.#sourceOnly ? livePreview : [];
  }
}
