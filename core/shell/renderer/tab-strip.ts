import type { UiTab } from '../../protocol/protocol.js';

export interface TabActions {
  readonly select: (tabId: string) => void;
  readonly close: (tabId: string) => void;
}

/**
 * The open tabs, the active one raised, unsaved ones marked with a dot. A tab a plugin keeps (a
 * browser tab) shows its picture, whether it is loading and who drives it; its close button is
 * there only when its plugin closes tabs for the person (ADR 56), and its plugin does the closing.
 */
export class TabStrip {
  constructor(
    private readonly element: HTMLElement,
    private readonly actions: TabActions,
  ) {
    element.setAttribute('role', 'tablist');
  }

  show(tabs: readonly UiTab[]): void {
    this.element.replaceChildren(...tabs.map((tab) => this.#tab(tab)));
  }

  #tab(tab: UiTab): HTMLElement {
    const element = document.createElement('div');
    element.className = 'tab';
    element.classList.toggle('is-active', tab.active);
    element.classList.toggle('is-dirty', tab.dirty);
    element.dataset.tabId = tab.id;
    element.setAttribute('role', 'tab');
    element.setAttribute('aria-selected', String(tab.active));
    element.title = tab.filePath ?? tab.title;
    element.addEventListener('mousedown', (event) => {
      if (event.button === 1) event.preventDefault();
    });
    element.addEventListener('click', () => this.actions.select(tab.id));
    element.addEventListener('auxclick', (event) => {
      if (event.button === 1 && (tab.provided?.closable ?? true)) this.actions.close(tab.id);
    });

    const title = document.createElement('span');
    title.className = 'tab-title';
    title.textContent = tab.title;
    if (tab.provided !== undefined) {
      element.classList.add('is-provided');
      element.classList.toggle('is-loading', tab.provided.loading);
      element.dataset.kind = tab.kind;
      element.append(this.#icon(tab.provided.icon, tab.provided.loading), title);
      if (tab.provided.badge !== null) {
        const badge = document.createElement('span');
        badge.className = 'tab-badge';
        badge.textContent = tab.provided.badge;
        element.append(badge);
        element.title = `${tab.title} — ${tab.provided.badge}`;
      }
      if (tab.provided.closable) element.append(this.#close(tab));
      return element;
    }
    element.append(title, this.#close(tab));
    return element;
  }

  #close(tab: UiTab): HTMLElement {
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'tab-close';
    close.setAttribute('aria-label', tab.dirty ? `Close ${tab.title} (unsaved)` : `Close ${tab.title}`);
    close.addEventListener('click', (event) => {
      event.stopPropagation();
      this.actions.close(tab.id);
    });
    return close;
  }

  /** The tab's picture (a data: URL only), a spinner while it loads, else a plain globe. */
  #icon(icon: string | null, loading: boolean): HTMLElement {
    if (loading || icon === null || !icon.startsWith('data:image/')) {
      const glyph = document.createElement('span');
      glyph.className = loading ? 'tab-icon tab-spinner' : 'tab-icon tab-globe';
      glyph.setAttribute('aria-label', loading ? 'loading' : '');
      return glyph;
    }
    const image = document.createElement('img');
    image.className = 'tab-icon';
    image.alt = '';
    image.src = icon;
    return image;
  }
}
