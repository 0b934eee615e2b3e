import { rankMatches } from '../../../matching/fuzzy-score.js';
import { COMMAND_PALETTE } from '../../../protocol/builtin-commands.js';
import type { UiCommand } from '../../../protocol/command-protocol.js';
import { element } from '../element.js';
import type { PageCommands } from './page-commands.js';

const RECENT_KEY = 'vmark.recentCommands';
const RECENT_LIMIT = 8;
const SHOWN_LIMIT = 200;

/**
 * The command palette (Ctrl/Cmd+Shift+P): every command that applies where the person was, found
 * by fuzzy match on "Category: Title", the recently run first, each with its key. Arrow keys move,
 * Enter runs, Esc closes; the focus goes back where it was before the command runs, so a command
 * about the editor finds the editor focused.
 */
export class CommandPalette {
  readonly #dialog: HTMLDialogElement;
  readonly #input: HTMLInputElement;
  readonly #list: HTMLElement;
  #shown: UiCommand[] = [];
  #candidates: UiCommand[] = [];
  #selected = 0;
  #returnFocus: HTMLElement | null = null;
  #release: (() => void) | undefined;

  constructor(
    container: HTMLElement,
    private readonly commands: PageCommands,
  ) {
    this.#dialog = element('dialog', 'command-palette');
    this.#dialog.setAttribute('aria-label', 'Command palette');
    this.#input = element('input', 'command-palette-input');
    this.#input.type = 'text';
    this.#input.placeholder = 'Type a command';
    this.#input.setAttribute('role', 'combobox');
    this.#input.setAttribute('aria-controls', 'command-palette-list');
    this.#input.setAttribute('aria-expanded', 'true');
    this.#input.spellcheck = false;
    this.#list = element('ul', 'command-palette-list');
    this.#list.id = 'command-palette-list';
    this.#list.setAttribute('role', 'listbox');
    this.#dialog.append(this.#input, this.#list);
    container.append(this.#dialog);
    this.#input.addEventListener('input', () => this.#filter());
    this.#input.addEventListener('keydown', (event) => this.#key(event));
    this.#dialog.addEventListener('click', (event) => {
      if (event.target === this.#dialog) this.#dialog.close();
    });
    this.#dialog.addEventListener('close', () => this.#closed());
  }

  get isOpen(): boolean {
    return this.#dialog.open;
  }

  open(): void {
    if (this.#dialog.open) return this.#dialog.close();
    const context = this.commands.context();
    this.#candidates = this.commands
      .runnable()
      .filter((c) => c.id !== COMMAND_PALETTE && this.commands.applies(c, context));
    this.#returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    this.#release = this.commands.hold();
    this.#input.value = '';
    this.#dialog.showModal();
    this.#input.focus();
    this.#filter();
  }

  #filter(): void {
    const byId = new Map(this.#candidates.map((c) => [c.id, c]));
    const recent = readRecent().flatMap((id) => byId.get(id) ?? []);
    this.#shown = rankMatches(this.#input.value.trim(), this.#candidates, labelOf, recent, SHOWN_LIMIT).map(
      (ranked) => ranked.item,
    );
    this.#selected = 0;
    this.#render();
  }

  #render(): void {
    this.#list.replaceChildren(
      ...(this.#shown.length === 0
        ? [element('li', 'command-palette-empty', 'No command matches')]
        : this.#shown.map((command, index) => this.#item(command, index))),
    );
    const selected = this.#list.children[this.#selected];
    if (selected instanceof HTMLElement) {
      this.#input.setAttribute('aria-activedescendant', selected.id);
      selected.scrollIntoView({ block: 'nearest' });
    }
  }

  #item(command: UiCommand, index: number): HTMLElement {
    const item = element('li', 'command-palette-item');
    item.id = `command-palette-item-${index}`;
    item.dataset.commandId = command.id;
    item.setAttribute('role', 'option');
    item.setAttribute('aria-selected', String(index === this.#selected));
    item.append(
      element('span', 'command-palette-category', `${command.category}: `),
      element('span', 'command-palette-title', command.title),
    );
    if (command.key !== null) item.append(element('kbd', 'command-palette-key', command.key));
    item.addEventListener('mousedown', (event) => event.preventDefault());
    item.addEventListener('click', () => this.#run(command));
    return item;
  }

  #key(event: KeyboardEvent): void {
    const move = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (move !== undefined && this.#shown.length > 0) {
      event.preventDefault();
      this.#selected = (this.#selected + move + this.#shown.length) % this.#shown.length;
      this.#render();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const command = this.#shown[this.#selected];
      if (command !== undefined) this.#run(command);
    }
  }

  #run(command: UiCommand): void {
    writeRecent(command.id);
    this.#dialog.close();
    void this.commands.run(command.id);
  }

  #closed(): void {
    this.#release?.();
    this.#release = undefined;
    this.#returnFocus?.focus();
    this.#returnFocus = null;
  }
}

function labelOf(command: UiCommand): string {
  return `${command.category}: ${command.title}`;
}

function readRecent(): string[] {
  try {
    const stored = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as unknown;
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function writeRecent(id: string): void {
  const recent = [id, ...readRecent().filter((other) => other !== id)].slice(0, RECENT_LIMIT);
  localStorage.setItem(RECENT_KEY, JSON.stringify(recent));
}
