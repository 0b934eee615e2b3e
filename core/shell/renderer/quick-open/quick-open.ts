import type { QuickOpenItem, QuickOpenIndexState } from '../../../protocol/quick-open-protocol.js';
import type { Connection } from '../connection.js';
import { element } from '../element.js';

/** How many files the list shows. */
const LIMIT = 50;
/** While the index is first built, the list asks again this often, so the count and the matches grow. */
const BUILDING_POLL_MS = 200;

/**
 * Quick open (Ctrl/Cmd+P, ADR 62): a modal list of the workspace's files for a fuzzy query,
 * matched in the host (the list of files stays there, current with the disk). Each keystroke
 * asks once; while an answer is on its way only the latest query waits, so fast typing never
 * queues stale queries. ↑/↓ move, Enter opens, Ctrl/Cmd+Enter opens in a tab behind and keeps
 * the list, Esc closes.
 */
export class QuickOpen {
  readonly #dialog: HTMLDialogElement;
  readonly #input: HTMLInputElement;
  readonly #list: HTMLUListElement;
  readonly #status: HTMLElement;
  #items: readonly QuickOpenItem[] = [];
  #selected = 0;
  #asking = false;
  #wanted: string | null = null;
  #poll: ReturnType<typeof setTimeout> | undefined;

  constructor(
    container: HTMLElement,
    private readonly connection: Connection,
    /** Says the host's refusal to the person (a file gone, not text). */
    private readonly refused: (error: unknown) => void,
  ) {
    this.#dialog = element('dialog', 'modal quick-open');
    this.#dialog.setAttribute('aria-label', 'Quick open');
    this.#input = element('input', 'quick-open-input');
    this.#input.type = 'text';
    this.#input.placeholder = 'Go to file…';
    this.#input.setAttribute('role', 'combobox');
    this.#input.setAttribute('aria-controls', 'quick-open-list');
    this.#input.setAttribute('aria-expanded', 'true');
    this.#input.spellcheck = false;
    this.#list = element('ul', 'quick-open-list');
    this.#list.id = 'quick-open-list';
    this.#list.setAttribute('role', 'listbox');
    this.#status = element('p', 'quick-open-status');
    this.#status.setAttribute('aria-live', 'polite');
    this.#dialog.append(this.#input, this.#status, this.#list);
    this.#input.addEventListener('input', () => this.#ask(this.#input.value));
    this.#input.addEventListener('keydown', (event) => this.#key(event));
    this.#dialog.addEventListener('click', (event) => {
      if (event.target === this.#dialog) this.#dialog.close();
    });
    this.#dialog.addEventListener('close', () => clearTimeout(this.#poll));
    container.append(this.#dialog);
  }

  get isOpen(): boolean {
    return this.#dialog.open;
  }

  /** Shows the list with the recent files (an empty query), or brings the focus back to it. */
  open(): void {
    if (!this.#dialog.open) {
      this.#input.value = '';
      this.#items = [];
      this.#render();
      this.#dialog.showModal();
      this.#ask('');
    }
    this.#input.focus();
    this.#input.select();
  }

  #ask(query: string): void {
    this.#wanted = query;
    if (this.#asking) return;
    this.#asking = true;
    void this.#askLatest();
  }

  async #askLatest(): Promise<void> {
    while (this.#wanted !== null) {
      const query = this.#wanted;
      this.#wanted = null;
      try {
        const answer = await this.connection.request('quickOpen.query', { query, limit: LIMIT });
        // A newer query typed meanwhile is asked next; this answer is not shown.
        if (this.#wanted === null && this.#dialog.open) this.#show(answer.items, answer.index, query);
      } catch (error) {
        this.refused(error);
      }
    }
    this.#asking = false;
  }

  #show(items: readonly QuickOpenItem[], index: QuickOpenIndexState, query: string): void {
    this.#items = items;
    this.#selected = 0;
    this.#render();
    // Which query the list answers (tests and the bench wait for it).
    this.#list.dataset.query = query;
    const count = index.files.toLocaleString();
    this.#status.textContent = index.building
      ? `Indexing the workspace… ${count} files so far`
      : items.length === 0
        ? query.trim() === ''
          ? 'No files in this workspace'
          : 'No file matches'
        : index.notes.join(' ');
    this.#dialog.classList.toggle('is-building', index.building);
    clearTimeout(this.#poll);
    if (index.building) {
      this.#poll = setTimeout(() => {
        if (this.#dialog.open) this.#ask(this.#input.value);
      }, BUILDING_POLL_MS);
    }
  }

  #render(): void {
    this.#list.replaceChildren(
      ...this.#items.map((item, i) => {
        const row = element('li', 'quick-open-item');
        row.id = `quick-open-item-${i}`;
        row.setAttribute('role', 'option');
        row.setAttribute('aria-selected', String(i === this.#selected));
        row.dataset.path = item.path;
        row.append(...highlighted(item.label, item.positions));
        if (item.recent) row.append(element('span', 'quick-open-recent', 'recent'));
        row.addEventListener('mousedown', (event) => event.preventDefault());
        row.addEventListener('click', (event) => void this.#openItem(i, event.ctrlKey || event.metaKey));
        return row;
      }),
    );
    this.#input.setAttribute(
      'aria-activedescendant',
      this.#items.length > 0 ? `quick-open-item-${this.#selected}` : '',
    );
  }

  #key(event: KeyboardEvent): void {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (this.#items.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.#selected = (this.#selected + step + this.#items.length) % this.#items.length;
      this.#render();
      this.#list.children[this.#selected]?.scrollIntoView({ block: 'nearest' });
    } else if (event.key === 'Enter') {
      event.preventDefault();
      void this.#openItem(this.#selected, event.ctrlKey || event.metaKey);
    }
  }

  /** Opens the item; `behind`: in a tab that is not shown, the list staying open for the next. */
  async #openItem(index: number, behind: boolean): Promise<void> {
    const item = this.#items[index];
    if (item === undefined) return;
    if (!behind) this.#dialog.close();
    try {
      await this.connection.request('quickOpen.open', { path: item.path, background: behind });
    } catch (error) {
      this.refused(error);
    }
  }
}

/** The label as text nodes, the matched characters in `<mark>` (text only: file names are untrusted). */
function highlighted(label: string, positions: readonly number[]): Node[] {
  const marked = new Set(positions);
  const nodes: Node[] = [];
  let run = '';
  let inMark = false;
  const flush = () => {
    if (run === '') return;
    nodes.push(inMark ? element('mark', 'quick-open-match', run) : document.createTextNode(run));
    run = '';
  };
  for (let i = 0; i < label.length; i++) {
    if (marked.has(i) !== inMark) {
      flush();
      inMark = !inMark;
    }
    run += label[i];
  }
  flush();
  return nodes;
}
