import { expandReplacement, searchPattern } from '../../../matching/search-pattern.js';
import type {
  ReplaceFile,
  SearchFileResult,
  SearchMatch,
  SearchOptions,
  SearchResult,
} from '../../../protocol/search-protocol.js';
import type { Connection } from '../connection.js';
import { element } from '../element.js';
import { refusalWords } from '../refusal-words.js';

/** Where a match is, for the editor to put its selection on. */
export interface MatchPlace {
  readonly line: number;
  readonly column: number;
  readonly length: number;
}

/** The query and options a shown result answers. */
interface Answered {
  readonly query: string;
  readonly options: SearchOptions;
}

/** Typing settles this long before the search is asked. */
const TYPING_MS = 150;
/** While the file list is first built, the panel asks again this often. */
const BUILDING_POLL_MS = 300;

const TOGGLES: readonly { option: keyof SearchOptions; label: string; title: string }[] = [
  { option: 'caseSensitive', label: 'Aa', title: 'Match case' },
  { option: 'wholeWord', label: 'ab', title: 'Match whole word' },
  { option: 'regex', label: '.*', title: 'Use regular expression' },
];

/**
 * Vault search (Ctrl/Cmd+Shift+F, ADR 68): the query and its options, the matches grouped by
 * file with their lines, a click opens the file with the match selected. With a replacement
 * typed, each file and match gets a box (checked: replaced) and shows the text it would become;
 * Replace all writes the checked ones, each changed file a checkpoint of its own (History).
 * The search runs in the host; only the latest query waits while one is on its way.
 */
export class SearchPanel {
  readonly #panel: HTMLElement;
  readonly #query: HTMLInputElement;
  readonly #replacement: HTMLInputElement;
  readonly #replaceButton: HTMLButtonElement;
  readonly #status: HTMLElement;
  readonly #list: HTMLElement;
  readonly #options: { caseSensitive: boolean; wholeWord: boolean; regex: boolean } = {
    caseSensitive: false,
    wholeWord: false,
    regex: false,
  };
  #result: SearchResult | null = null;
  /** What the shown result answers (the replace sends the same query). */
  #answered: Answered | null = null;
  /** Per file, the matches left unchecked; a file in `#skippedFiles` is left whole. */
  readonly #skipped = new Map<string, Set<number>>();
  readonly #skippedFiles = new Set<string>();
  #asking = false;
  #wanted = false;
  #typing: ReturnType<typeof setTimeout> | undefined;
  #replacing = false;

  constructor(
    private readonly slot: HTMLElement,
    private readonly connection: Connection,
    private readonly openAt: (path: string, place: MatchPlace) => Promise<void>,
    private readonly notify: (message: string) => void,
  ) {
    this.#panel = element('section', 'side-panel search-panel');
    this.#panel.setAttribute('aria-labelledby', 'search-title');
    this.#panel.hidden = true;
    const header = element('header', 'side-panel-header');
    const title = element('h2', 'side-panel-title', 'Search');
    title.id = 'search-title';
    header.append(title);

    const queryRow = element('div', 'search-row');
    this.#query = element('input', 'search-input search-query');
    this.#query.type = 'search';
    this.#query.placeholder = 'Search in files';
    this.#query.setAttribute('aria-label', 'Search in files');
    this.#query.spellcheck = false;
    const toggles = element('div', 'search-toggles');
    for (const toggle of TOGGLES) {
      const button = element('button', 'search-toggle', toggle.label);
      button.type = 'button';
      button.title = toggle.title;
      button.setAttribute('aria-label', toggle.title);
      button.setAttribute('aria-pressed', 'false');
      button.dataset.option = toggle.option;
      button.addEventListener('click', () => {
        this.#options[toggle.option] = !this.#options[toggle.option];
        button.setAttribute('aria-pressed', String(this.#options[toggle.option]));
        this.#ask();
      });
      toggles.append(button);
    }
    queryRow.append(this.#query, toggles);

    const replaceRow = element('div', 'search-row');
    this.#replacement = element('input', 'search-input search-replacement');
    this.#replacement.type = 'text';
    this.#replacement.placeholder = 'Replace';
    this.#replacement.setAttribute('aria-label', 'Replace with');
    this.#replacement.spellcheck = false;
    this.#replaceButton = element('button', 'button button-small search-replace-all', 'Replace all');
    this.#replaceButton.type = 'button';
    this.#replaceButton.title =
      'Replace the checked matches (also those of a checked file not listed); each changed file can be restored from History';
    replaceRow.append(this.#replacement, this.#replaceButton);

    this.#status = element('p', 'search-status');
    this.#status.setAttribute('aria-live', 'polite');
    this.#list = element('ol', 'search-results');
    this.#panel.append(header, queryRow, replaceRow, this.#status, this.#list);
    slot.append(this.#panel);

    this.#query.addEventListener('input', () => {
      clearTimeout(this.#typing);
      this.#typing = setTimeout(() => this.#ask(), TYPING_MS);
    });
    this.#query.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        clearTimeout(this.#typing);
        this.#ask();
      }
    });
    this.#replacement.addEventListener('input', () => this.#render());
    this.#replaceButton.addEventListener('click', () => void this.#replaceAll());
    this.#panel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') this.close();
    });
    // Saves, opens and an AI client's writes come with a new state: the list follows.
    connection.onState(() => {
      if (!this.#panel.hidden && this.#answered !== null) this.#ask();
    });
    window.addEventListener('focus', () => {
      if (!this.#panel.hidden && this.#answered !== null) this.#ask();
    });
    this.#render();
  }

  /** Shows the panel with the focus in the query (its text selected), the selection's text as the query if any. */
  open(): void {
    if (this.#panel.hidden) {
      this.#panel.hidden = false;
      this.slot.hidden = false;
    }
    const selected = window.getSelection()?.toString() ?? '';
    if (selected !== '' && !selected.includes('\n') && !this.#panel.contains(document.activeElement)) {
      this.#query.value = selected;
      this.#ask();
    }
    this.#query.focus();
    this.#query.select();
  }

  close(): void {
    this.#panel.hidden = true;
    // The slot is shared with other panels: shown while any of them is.
    this.slot.hidden = [...this.slot.children].every((child) => (child as HTMLElement).hidden);
  }

  #ask(): void {
    this.#wanted = true;
    if (this.#asking) return;
    this.#asking = true;
    void this.#askLatest();
  }

  async #askLatest(): Promise<void> {
    while (this.#wanted) {
      this.#wanted = false;
      const query = this.#query.value;
      const options = { ...this.#options };
      if (query === '') {
        this.#show(null, null);
        continue;
      }
      try {
        const result = await this.connection.request('search.query', { query, options });
        if (!this.#wanted) this.#show(result, { query, options });
        if (result.building && !this.#wanted) {
          setTimeout(() => !this.#panel.hidden && this.#ask(), BUILDING_POLL_MS);
        }
      } catch (error) {
        // A regex that is not valid: said where the person typed it, the old list gone.
        if (!this.#wanted) this.#show(null, null, refusalWords(error));
      }
    }
    this.#asking = false;
  }

  #show(result: SearchResult | null, answered: Answered | null, error?: string): void {
    const sameQuery =
      answered !== null &&
      this.#answered !== null &&
      answered.query === this.#answered.query &&
      JSON.stringify(answered.options) === JSON.stringify(this.#answered.options);
    if (!sameQuery) {
      this.#skipped.clear();
      this.#skippedFiles.clear();
    }
    this.#result = result;
    this.#answered = answered;
    this.#panel.classList.toggle('has-error', error !== undefined);
    this.#list.dataset.query = answered?.query ?? '';
    this.#render(error);
  }

  #render(error?: string): void {
    const result = this.#result;
    const replacing = this.#replacement.value !== '' || this.#replacing;
    this.#panel.classList.toggle('is-replacing', replacing);
    this.#replaceButton.disabled = result === null || result.files.length === 0 || this.#replacing;
    if (error !== undefined) {
      this.#status.textContent = error;
      this.#status.classList.add('is-error');
      this.#list.replaceChildren();
      return;
    }
    this.#status.classList.remove('is-error');
    if (result === null) {
      this.#status.textContent = '';
      this.#list.replaceChildren();
      return;
    }
    const matches = result.files.reduce((sum, f) => sum + f.matches.length + f.more, 0) + result.moreMatches;
    const files = result.files.length + result.moreFiles;
    const counts =
      matches === 0
        ? result.building
          ? 'Listing the workspace…'
          : 'No results'
        : `${count(matches, 'result')} in ${count(files, 'file')}`;
    this.#status.textContent = [counts, ...result.notes].join(' · ');
    const pattern = replacing && this.#answered !== null ? this.#previewPattern() : null;
    const rows: HTMLElement[] = result.files.map((file) => this.#fileRow(file, replacing, pattern));
    if (result.moreFiles > 0) {
      rows.push(
        element(
          'li',
          'search-more',
          `${count(result.moreMatches, 'more match', 'more matches')} in ${count(result.moreFiles, 'more file')} — narrow the search to see them`,
        ),
      );
    }
    this.#list.replaceChildren(...rows);
  }

  #fileRow(file: SearchFileResult, replacing: boolean, pattern: RegExp | null): HTMLElement {
    const row = element('li', 'search-file');
    row.dataset.path = file.path;
    const head = element('div', 'search-file-head');
    const fileSkipped = this.#skippedFiles.has(file.path);
    if (replacing) {
      const box = element('input', 'search-check');
      box.type = 'checkbox';
      box.checked = !fileSkipped;
      box.setAttribute('aria-label', `Replace in ${file.label}`);
      box.addEventListener('change', () => {
        if (box.checked) this.#skippedFiles.delete(file.path);
        else this.#skippedFiles.add(file.path);
        this.#render();
      });
      head.append(box);
    }
    const name = element('span', 'search-file-label', file.label);
    name.title = file.path;
    head.append(name, element('span', 'search-file-count', String(file.matches.length + file.more)));
    const list = element('ol', 'search-matches');
    const skipped = this.#skipped.get(file.path);
    file.matches.forEach((match, index) => {
      const item = element('li', 'search-match');
      item.dataset.line = String(match.line);
      item.dataset.column = String(match.column);
      if (replacing) {
        const box = element('input', 'search-check');
        box.type = 'checkbox';
        box.checked = !fileSkipped && !(skipped?.has(index) ?? false);
        box.disabled = fileSkipped;
        box.setAttribute('aria-label', `Replace the match on line ${match.line}`);
        box.addEventListener('click', (event) => event.stopPropagation());
        box.addEventListener('change', () => {
          const set = this.#skipped.get(file.path) ?? new Set<number>();
          if (box.checked) set.delete(index);
          else set.add(index);
          this.#skipped.set(file.path, set);
        });
        item.append(box);
      }
      item.append(element('span', 'search-line', String(match.line)), this.#preview(match, pattern));
      item.tabIndex = 0;
      const go = () => void this.openAt(file.path, match);
      item.addEventListener('click', go);
      item.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') go();
      });
      list.append(item);
    });
    if (file.more > 0)
      list.append(
        element('li', 'search-more', `${count(file.more, 'more match', 'more matches')} in this file`),
      );
    row.append(head, list);
    return row;
  }

  /** The line with the match marked; with a replacement, the match struck and what replaces it after. */
  #preview(match: SearchMatch, pattern: RegExp | null): HTMLElement {
    const line = element('span', 'search-preview');
    const before = match.preview.slice(0, match.start);
    const found = match.preview.slice(match.start, match.end);
    const after = match.preview.slice(match.end);
    line.append(document.createTextNode(before));
    if (pattern === null) line.append(element('mark', 'search-hit', found));
    else {
      line.append(
        element('del', 'search-hit', found),
        element('ins', 'search-new', this.#replaced(match, pattern)),
      );
    }
    line.append(document.createTextNode(after));
    return line;
  }

  /** What the match would become: the pattern run again at the match in its line (sticky), its groups expanded. */
  #replaced(match: SearchMatch, pattern: RegExp): string {
    const template = this.#replacement.value;
    if (!this.#options.regex) return template;
    pattern.lastIndex = match.start;
    const found = pattern.exec(match.preview);
    return found !== null && found.index === match.start
      ? expandReplacement(template, found, true)
      : template;
  }

  #previewPattern(): RegExp | null {
    const answered = this.#answered;
    if (answered === null) return null;
    try {
      const pattern = searchPattern(answered.query, answered.options);
      return new RegExp(pattern.source, `${pattern.flags.replace('g', '')}y`);
    } catch {
      return null;
    }
  }

  async #replaceAll(): Promise<void> {
    const result = this.#result;
    const answered = this.#answered;
    if (result === null || answered === null) return;
    const files: ReplaceFile[] = result.files
      .filter((file) => !this.#skippedFiles.has(file.path))
      .map((file) => ({
        path: file.path,
        sha256: file.sha256,
        skip: [...(this.#skipped.get(file.path) ?? [])],
      }));
    if (files.length === 0) return;
    this.#replacing = true;
    this.#render();
    try {
      const { files: outcomes } = await this.connection.request('search.replace', {
        ...answered,
        replacement: this.#replacement.value,
        files,
      });
      const replaced = outcomes.reduce((sum, o) => sum + o.replaced, 0);
      const changed = outcomes.filter((o) => o.replaced > 0).length;
      const left = outcomes.filter((o) => o.note !== undefined);
      const lines = [
        `Replaced ${count(replaced, 'match', 'matches')} in ${count(changed, 'file')} (History can undo each file).`,
      ];
      for (const file of left) lines.push(`${fileName(file.path)} was left as it was: ${file.note}`);
      this.notify(lines.join(' '));
      this.#status.dataset.replaced = String(replaced);
    } catch (error) {
      this.notify(refusalWords(error));
    } finally {
      this.#replacing = false;
      this.#ask();
    }
  }
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

function fileName(filePath: string): string {
  return filePath.slice(filePath.lastIndexOf('/') + 1) || filePath;
}
