import type { Extension } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import type { KindView } from '@vmark/sdk';
import type { UiKindView } from '../../../protocol/panel-protocol.js';
import type { Connection } from '../connection.js';
import { Emitter, type Unsubscribe } from '../emitter.js';
import { importPluginModule } from '../plugin-module.js';

/** A kind view as this page runs it: CodeMirror extensions, or a custom view mounted in an element. */
export type PageKindView = KindView<Extension, HTMLElement, EditorView>;

/** What a tab shows: its kind's view, or none (read-only plain text) and the words that say why. */
export interface ShownView {
  /** The same key is the same view: nothing to swap. */
  readonly key: string;
  readonly view: PageKindView | null;
  /** The plugin whose view it is: a custom view's requests go to its provider. */
  readonly pluginId: string | null;
  /** Shown above a tab without a view. */
  readonly notice: string | null;
}

/**
 * The views the active plugins contribute for their kinds (ADR 35), by kind. Core knows no kind
 * by name: a tab's kind gets the view its plugin declares, or none. The list follows the plugin
 * manager (`plugins.changed`), so turning a plugin off takes its views away from open tabs at once.
 */
export class KindViews {
  #views = new Map<string, UiKindView>();
  readonly #modules = new Map<string, Promise<PageKindView>>();
  readonly #changed = new Emitter<void>();
  #listed: Promise<void>;
  /** Each listing gets a number; an answer to an older one is dropped. */
  #generation = 0;

  constructor(
    private readonly connection: Connection,
    private readonly refused: (error: unknown) => void,
  ) {
    this.#listed = this.#list();
    connection.onPanelMessage((message) => {
      if (message.type === 'plugins.changed') this.#listed = this.#list();
    });
  }

  /** Called after the list changed: every open tab asks again for its view. */
  onChange(listener: () => void): Unsubscribe {
    return this.#changed.on(listener);
  }

  async viewFor(kind: string): Promise<ShownView> {
    await this.#listed;
    const contribution = this.#views.get(kind);
    if (contribution === undefined) {
      return {
        key: `none:${kind}`,
        view: null,
        pluginId: null,
        notice: `No plugin that runs shows “${kind}” documents: shown read-only, as plain text.`,
      };
    }
    try {
      return {
        key: contribution.modulePath,
        view: await this.#load(contribution.modulePath),
        pluginId: contribution.pluginId,
        notice: null,
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return {
        key: `failed:${contribution.modulePath}`,
        view: null,
        pluginId: contribution.pluginId,
        notice: `The view of plugin ${contribution.pluginId} failed to load (${message}): shown read-only, as plain text.`,
      };
    }
  }

  async #list(): Promise<void> {
    const generation = ++this.#generation;
    let views: UiKindView[];
    try {
      views = (await this.connection.request('kindViews.list', {})).views;
    } catch (error) {
      return this.refused(error);
    }
    if (generation !== this.#generation) return;
    this.#views = new Map(views.map((view) => [view.kind, view]));
    this.#changed.emit();
  }

  #load(modulePath: string): Promise<PageKindView> {
    let loading = this.#modules.get(modulePath);
    if (loading === undefined) {
      loading = importPluginModule(modulePath).then((module) => checkedView(modulePath, module.view));
      // A failed import is tried again next time (the plugin may have been rebuilt meanwhile).
      loading.catch(() => this.#modules.delete(modulePath));
      this.#modules.set(modulePath, loading);
    }
    return loading;
  }
}

/** The module's `view` export, checked for the shape the editor relies on. */
function checkedView(modulePath: string, view: unknown): PageKindView {
  const candidate = view as Partial<Record<'type' | 'extensions' | 'mount', unknown>> | null;
  if (candidate?.type === 'text' && typeof candidate.extensions === 'function') {
    const { commands } = view as { commands?: unknown };
    const usable =
      commands === undefined ||
      (typeof commands === 'object' &&
        commands !== null &&
        Object.values(commands).every((handler) => typeof handler === 'function'));
    if (usable) return view as PageKindView;
    throw new Error(`${modulePath}: the view's "commands" must map command ids to functions`);
  }
  if (candidate?.type === 'custom' && typeof candidate.mount === 'function') return view as PageKindView;
  throw new Error(`${modulePath} does not export a text or custom view as "view"`);
}
