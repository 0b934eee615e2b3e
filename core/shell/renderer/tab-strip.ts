import type { UiTab } from '../../protocol/protocol.js';

export interface TabActions {
  readonly select: (tabId: string) => void;
  readonly close: (tabId: string) => void;
}

/** The open tabs, the active one raised, unsaved ones marked with a dot. */
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
      if (event.button === 1) this.actions.close(tab.id);
    });

    const title = document.createElement('span');
    title.className = 'tab-title';
    title.textContent = tab.title;
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'tab-close';
    close.setAttribute('aria-label', tab.dirty ? `Close ${tab.title} (unsaved)` : `Close ${tab.title}`);
    close.addEventListener('click', (event) => {
      event.stopPropagation();
      this.actions.close(tab.id);
    });
    element.append(title, close);
    return element;
  }
}
