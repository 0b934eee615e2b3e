import { ChangeSet, EditorSelection } from '@codemirror/state';
import type { EditorMode, Editors, LiveEditor } from '@vmark/sdk';
import { ArgumentError } from '@vmark/sdk';
import { injectable } from 'inversify';
import { HOST_CLIENT_ID, type UpdateJson } from '../protocol/protocol.js';

/** What a page says of the editor it shows, placed in the host's terms. */
export interface PlacedReport {
  readonly tabId: string;
  readonly documentId: string;
  readonly mode: EditorMode;
  readonly from: number;
  readonly to: number;
  readonly focused: boolean;
  /** The collab version and the revision of the text the positions count in. */
  readonly version: number;
  readonly revision: string;
  /** The length of that text, to check the positions against. */
  readonly length: number;
}

interface Entry {
  editor: LiveEditor;
  version: number;
  /** When the page's editor last gained focus; the latest wins. */
  focusedAt: number;
  focused: boolean;
}

/**
 * The host's record of the live editors (`EditorsToken`): one entry per page
 * (keyed by its connection), the latest report of the editor it shows. A
 * selection stays valid as the text changes under it: every confirmed update
 * of its document is mapped over it, as CodeMirror maps the editor's own.
 */
@injectable()
export class FocusedEditor implements Editors {
  readonly #entries = new Map<object, Entry>();
  #clock = 0;

  focused(): LiveEditor | null {
    let latest: Entry | undefined;
    for (const entry of this.#entries.values()) {
      if (latest === undefined || entry.focusedAt > latest.focusedAt) latest = entry;
    }
    return latest?.editor ?? null;
  }

  /**
   * A page's report; `null` when it shows no editor.
   * @throws ArgumentError for positions outside the text they claim to count in.
   */
  report(page: object, report: PlacedReport | null): void {
    if (report === null) {
      this.#entries.delete(page);
      return;
    }
    const { from, to, length } = report;
    if (!(Number.isInteger(from) && Number.isInteger(to) && from >= 0 && from <= to && to <= length)) {
      throw new ArgumentError(`editor.report: selection ${from}..${to} does not fit a text of ${length}`);
    }
    const previous = this.#entries.get(page);
    const gainedFocus =
      report.focused &&
      (previous === undefined || !previous.focused || previous.editor.tabId !== report.tabId);
    this.#entries.set(page, {
      editor: {
        tabId: report.tabId,
        documentId: report.documentId,
        mode: report.mode,
        selection: { from, to },
        revision: report.revision,
      },
      version: report.version,
      // A page that never had focus still counts, behind every page that had.
      focusedAt: gainedFocus ? ++this.#clock : (previous?.focusedAt ?? 0),
      focused: report.focused,
    });
  }

  /**
   * Confirmed updates of a document, starting at `version`, that turned its text
   * into the one at `revision`: the page's selection moves with the text. A
   * selection that missed updates cannot be placed any more and is dropped.
   */
  mapThrough(
    page: object,
    documentId: string,
    version: number,
    updates: readonly UpdateJson[],
    revision: string,
  ): void {
    const entry = this.#entries.get(page);
    if (entry === undefined || entry.editor.documentId !== documentId) return;
    if (entry.version !== version) {
      this.#entries.delete(page);
      return;
    }
    let range = EditorSelection.range(entry.editor.selection.from, entry.editor.selection.to);
    for (const update of updates) {
      // As the editor maps its own: a cursor goes after text the host inserted at it (collab-sync.ts).
      range = range.map(ChangeSet.fromJSON(update.changes), update.clientID === HOST_CLIENT_ID ? 1 : -1);
    }
    entry.editor = { ...entry.editor, selection: { from: range.from, to: range.to }, revision };
    entry.version = version + updates.length;
  }

  /** The page is gone. */
  forget(page: object): void {
    this.#entries.delete(page);
  }
}
