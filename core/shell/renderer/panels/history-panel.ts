import type { UiCheckpoint } from '../../../protocol/panel-protocol.js';
import type { UiState } from '../../../protocol/protocol.js';
import type { Connection } from '../connection.js';
import { element } from '../element.js';

/**
 * The AI edit history: every change an MCP tool made to a document, newest
 * first, optionally only those of the file being edited, each with Restore
 * (the text from before that edit becomes a new revision, saved and itself
 * recorded, as `vmark checkpoints restore` does). New checkpoints arrive as
 * they are recorded, by this host or by another process (a restore in a terminal).
 */
export class HistoryPanel {
  readonly #panel: HTMLElement;
  readonly #list: HTMLElement;
  readonly #filter: HTMLInputElement;
  #activeFile: string | null = null;
  #checkpoints: readonly UiCheckpoint[] = [];
  /** Each refresh gets a number; an answer to an older one is dropped. */
  #generation = 0;
  #restoring: string | null = null;

  constructor(
    private readonly slot: HTMLElement,
    private readonly button: HTMLButtonElement,
    private readonly connection: Connection,
    private readonly notify: (message: string) => void,
    private readonly refused: (error: unknown) => void,
  ) {
    this.#panel = element('section', 'side-panel history-panel');
    this.#panel.setAttribute('aria-labelledby', 'history-title');
    this.#panel.hidden = true;
    const header = element('header', 'side-panel-header');
    const title = element('h2', 'side-panel-title', 'AI edit history');
    title.id = 'history-title';
    const filter = element('label', 'history-filter');
    this.#filter = element('input', '');
    this.#filter.type = 'checkbox';
    this.#filter.addEventListener('change', () => void this.#refresh());
    filter.append(this.#filter, document.createTextNode('This file only'));
    header.append(title, filter);
    this.#list = element('ol', 'history-list');
    this.#panel.append(header, this.#list);
    slot.append(this.#panel);

    button.setAttribute('aria-pressed', 'false');
    connection.onState((state) => this.#follow(state));
    connection.onPanelMessage((message) => {
      const changed = message.type === 'history.added' || message.type === 'history.changed';
      if (changed && !this.#panel.hidden) void this.#refresh();
    });
  }

  toggle(): void {
    this.#panel.hidden = !this.#panel.hidden;
    this.button.setAttribute('aria-pressed', String(!this.#panel.hidden));
    // The slot is shared with other panels: shown while any of them is.
    this.slot.hidden = [...this.slot.children].every((child) => (child as HTMLElement).hidden);
    if (!this.#panel.hidden) void this.#refresh();
  }

  #follow(state: UiState): void {
    const active = state.window.tabs.find((tab) => tab.active)?.filePath ?? null;
    if (active === this.#activeFile) return;
    this.#activeFile = active;
    if (!this.#panel.hidden && this.#filter.checked) void this.#refresh();
  }

  async #refresh(): Promise<void> {
    const generation = ++this.#generation;
    const only = this.#filter.checked;
    if (only && this.#activeFile === null) {
      this.#checkpoints = [];
      return this.#render();
    }
    try {
      const params = only && this.#activeFile !== null ? { filePath: this.#activeFile } : {};
      const { checkpoints } = await this.connection.request('history.list', params);
      if (generation !== this.#generation) return;
      this.#checkpoints = checkpoints;
    } catch (error) {
      this.refused(error);
    }
    this.#render();
  }

  async #restore(checkpoint: UiCheckpoint): Promise<void> {
    this.#restoring = checkpoint.id;
    this.#render();
    try {
      const result = await this.connection.request('history.restore', { id: checkpoint.id });
      this.notify(
        result.changed
          ? `Restored ${fileName(result.filePath)} to before this edit`
          : `${fileName(result.filePath)} already holds that text`,
      );
    } catch (error) {
      this.refused(error);
    } finally {
      this.#restoring = null;
      this.#render();
    }
  }

  #render(): void {
    if (this.#checkpoints.length === 0) {
      const empty = this.#filter.checked ? 'No AI edits to this file yet.' : 'No AI edits yet.';
      this.#list.replaceChildren(element('li', 'history-empty', empty));
      return;
    }
    this.#list.replaceChildren(...this.#checkpoints.map((c) => this.#item(c)));
  }

  #item(checkpoint: UiCheckpoint): HTMLElement {
    const item = element('li', 'history-item');
    item.dataset.checkpointId = checkpoint.id;
    const head = element('div', 'history-head');
    const time = element('time', 'history-time', localTime(checkpoint.createdAt));
    time.dateTime = checkpoint.createdAt;
    head.append(element('code', 'chip', checkpoint.tool), time);
    const file = element(
      'div',
      'history-file',
      checkpoint.filePath === null ? 'Untitled' : fileName(checkpoint.filePath),
    );
    if (checkpoint.filePath !== null) file.title = checkpoint.filePath;
    const description = element('div', 'history-description', checkpoint.description);
    const restore = element(
      'button',
      'button button-small',
      this.#restoring === checkpoint.id ? 'Restoring…' : 'Restore',
    );
    restore.type = 'button';
    restore.disabled = checkpoint.filePath === null || this.#restoring !== null;
    restore.title =
      checkpoint.filePath === null
        ? 'An untitled document cannot be restored'
        : 'Put back the text from before this edit (a new revision, itself recorded)';
    restore.addEventListener('click', () => void this.#restore(checkpoint));
    item.append(head, file, description, restore);
    return item;
  }
}

function fileName(filePath: string): string {
  return filePath.slice(filePath.lastIndexOf('/') + 1) || filePath;
}

/** Today's edits by their time, older ones with their date: how a person remembers them. */
function localTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const sameDay = at.toDateString() === new Date().toDateString();
  return sameDay
    ? at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })
    : at.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
}
