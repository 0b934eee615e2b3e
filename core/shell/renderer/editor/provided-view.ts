import type { UiTab } from '../../../protocol/protocol.js';
import type { Connection } from '../connection.js';
import { element } from '../element.js';
import { Emitter } from '../emitter.js';
import type { ShownView } from './kind-views.js';
import { viewChannel } from './view-channel.js';

/**
 * A tab a plugin keeps (a browser tab, ADR 49): no document, only its kind's custom view, mounted
 * while the tab is shown and unmounted when it is not, so that whatever it watches (a live
 * picture) stops with it. A kind with no custom view shows a notice saying why.
 */
export class ProvidedTabView {
  readonly dom: HTMLElement;
  readonly #refresh = new Emitter<void>();
  #cleanup: (() => void) | undefined;
  #destroyed = false;

  private constructor(
    readonly tab: UiTab,
    connection: Connection,
    shown: ShownView,
  ) {
    this.dom = element('div', 'document-view provided-view');
    this.dom.dataset.tabId = tab.id;
    const custom = shown.view?.type === 'custom' ? shown.view : undefined;
    if (custom === undefined || shown.pluginId === null) {
      this.dom.dataset.view = 'none';
      this.dom.append(
        element('p', 'view-notice', shown.notice ?? `No plugin that runs shows “${tab.kind}” tabs.`),
      );
      return;
    }
    this.dom.dataset.view = 'custom';
    const body = element('div', 'kind-view');
    this.dom.append(body);
    try {
      const cleanup = custom.mount(body, {
        tab: { id: tab.id, title: tab.title, filePath: null, kind: tab.kind },
        text: () => '',
        onTextChange: () => () => undefined,
        onRefresh: (listener) => this.#refresh.on(listener),
        ...viewChannel(connection, shown.pluginId, tab.kind),
      });
      this.#cleanup = typeof cleanup === 'function' ? cleanup : undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.dom.replaceChildren(
        element('p', 'view-notice', `The view of this tab failed to start: ${message}`),
      );
    }
  }

  static async open(
    tab: UiTab,
    connection: Connection,
    viewFor: (kind: string) => Promise<ShownView>,
  ): Promise<ProvidedTabView> {
    return new ProvidedTabView(tab, connection, await viewFor(tab.kind));
  }

  refresh(): void {
    this.#refresh.emit();
  }

  /** A view's own teardown must not stop the editor showing another tab. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    try {
      this.#cleanup?.();
    } catch (error) {
      console.error('A kind view failed to clean up', error);
    }
    this.dom.replaceChildren();
  }
}
