import {
  closeSearchPanel,
  findNext,
  findPrevious,
  getSearchQuery,
  openSearchPanel,
  replaceAll,
  replaceNext,
  search,
  SearchQuery,
  setSearchQuery,
} from '@codemirror/search';
import type { Extension } from '@codemirror/state';
import type { EditorView, Panel, ViewUpdate } from '@codemirror/view';
import { element } from '../element.js';
import { countMatches, matchLabel, patternProblem } from './find-matches.js';

/**
 * Find and replace in the open file (ADR 72): CodeMirror's search state and commands, with a
 * panel of the editor's own above the text — the pattern, Match case, Whole word, Regular
 * expression, the count of matches and which one is selected, and Replace / Replace all (one
 * transaction: one undo). A regular expression that does not compile is said under the field;
 * nothing is searched with it. Works the same in Live and Source mode: matches are offsets in the
 * Markdown, as the editor's positions are.
 */
export function findInFile(): Extension {
  return search({ top: true, createPanel: (view) => new FindPanel(view) });
}

/** Opens the panel (the selection, if on one line, becomes the pattern) with the focus in its pattern. */
export function openFind(view: EditorView): void {
  openSearchPanel(view);
}

/** Opens the panel with the focus in its replacement. */
export function openReplace(view: EditorView): void {
  openSearchPanel(view);
  const field = view.dom.querySelector<HTMLInputElement>('.find-panel input[name=replace]');
  field?.focus();
  field?.select();
}

class FindPanel implements Panel {
  readonly dom: HTMLElement;
  readonly top = true;
  readonly #pattern: HTMLInputElement;
  readonly #replacement: HTMLInputElement;
  readonly #caseSensitive: HTMLInputElement;
  readonly #wholeWord: HTMLInputElement;
  readonly #regexp: HTMLInputElement;
  readonly #count: HTMLElement;
  readonly #problem: HTMLElement;
  #query: SearchQuery;

  constructor(private readonly view: EditorView) {
    this.#query = getSearchQuery(view.state);
    this.dom = element('div', 'find-panel');
    this.dom.setAttribute('role', 'search');
    this.dom.addEventListener('keydown', (event) => this.#key(event));

    this.#pattern = this.#field('search', 'Find', this.#query.search);
    this.#pattern.setAttribute('main-field', 'true');
    this.#replacement = this.#field('replace', 'Replace with', this.#query.replace);
    this.#caseSensitive = this.#toggle('case', 'Aa', 'Match case', this.#query.caseSensitive);
    this.#wholeWord = this.#toggle('word', 'W', 'Whole word', this.#query.wholeWord);
    this.#regexp = this.#toggle('re', '.*', 'Regular expression', this.#query.regexp);
    this.#count = element('span', 'find-count');
    this.#count.setAttribute('aria-live', 'polite');
    this.#problem = element('p', 'find-problem');
    this.#problem.setAttribute('role', 'alert');

    const findRow = element('div', 'find-row');
    findRow.append(
      this.#pattern,
      this.#caseSensitive.parentElement!,
      this.#wholeWord.parentElement!,
      this.#regexp.parentElement!,
      this.#count,
      this.#button('previous', '↑', 'Previous match (Shift+Enter)', () => findPrevious(view)),
      this.#button('next', '↓', 'Next match (Enter)', () => findNext(view)),
      this.#button('close', '×', 'Close (Esc)', () => this.#close()),
    );
    const replaceRow = element('div', 'find-row');
    replaceRow.append(
      this.#replacement,
      this.#button('replace', 'Replace', 'Replace this match (Enter)', () => replaceNext(view)),
      this.#button('replace-all', 'Replace all', 'Replace every match (one undo)', () => replaceAll(view)),
    );
    this.dom.append(findRow, replaceRow, this.#problem);
    this.#show();
  }

  /** Newly open: the focus in the pattern, its text selected (CodeMirror focuses it on later opens). */
  mount(): void {
    this.#pattern.focus();
    this.#pattern.select();
  }

  update(update: ViewUpdate): void {
    const query = getSearchQuery(update.state);
    if (!query.eq(this.#query)) {
      this.#query = query;
      this.#pattern.value = query.search;
      this.#replacement.value = query.replace;
      this.#caseSensitive.checked = query.caseSensitive;
      this.#wholeWord.checked = query.wholeWord;
      this.#regexp.checked = query.regexp;
      this.#show();
    } else if (update.docChanged || update.selectionSet) {
      this.#show();
    }
  }

  #field(name: string, label: string, value: string): HTMLInputElement {
    const input = element('input', 'find-field');
    input.name = name;
    input.value = value;
    input.placeholder = label;
    input.setAttribute('aria-label', label);
    input.spellcheck = false;
    input.addEventListener('input', () => this.#commit());
    return input;
  }

  #toggle(name: string, text: string, title: string, checked: boolean): HTMLInputElement {
    const label = element('label', 'find-toggle');
    label.title = title;
    const input = element('input', '');
    input.type = 'checkbox';
    input.name = name;
    input.checked = checked;
    input.setAttribute('aria-label', title);
    input.addEventListener('change', () => this.#commit());
    label.append(input, element('span', '', text));
    return input;
  }

  #button(name: string, text: string, title: string, run: () => void): HTMLButtonElement {
    const button = element('button', 'find-button', text);
    button.type = 'button';
    button.name = name;
    button.title = title;
    button.addEventListener('click', run);
    return button;
  }

  /** The fields as a query, into the editor's search state (which the update then shows). */
  #commit(): void {
    const query = new SearchQuery({
      search: this.#pattern.value,
      replace: this.#replacement.value,
      caseSensitive: this.#caseSensitive.checked,
      wholeWord: this.#wholeWord.checked,
      regexp: this.#regexp.checked,
    });
    if (!query.eq(this.#query)) this.view.dispatch({ effects: setSearchQuery.of(query) });
  }

  /** The count of matches, or why the pattern is not a regular expression. */
  #show(): void {
    const problem = patternProblem(this.#query.search, this.#query.regexp);
    this.#problem.textContent = problem === undefined ? '' : `Not a valid regular expression: ${problem}`;
    this.#problem.hidden = problem === undefined;
    this.#pattern.toggleAttribute('aria-invalid', problem !== undefined);
    this.#count.textContent =
      this.#query.search === '' || problem !== undefined
        ? ''
        : matchLabel(countMatches(this.#query, this.view.state));
  }

  #key(event: KeyboardEvent): void {
    if (event.isComposing) return;
    const target = event.target;
    if (event.key === 'Escape') {
      event.preventDefault();
      this.#close();
    } else if (event.key === 'Enter' && target === this.#pattern) {
      event.preventDefault();
      (event.shiftKey ? findPrevious : findNext)(this.view);
    } else if (event.key === 'Enter' && target === this.#replacement) {
      event.preventDefault();
      (event.ctrlKey || event.metaKey ? replaceAll : replaceNext)(this.view);
    }
  }

  #close(): void {
    closeSearchPanel(this.view);
    this.view.focus();
  }
}
