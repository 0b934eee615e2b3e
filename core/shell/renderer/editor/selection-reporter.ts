import { getSyncedVersion, sendableUpdates } from './collab-state.js';
import type { EditorReport } from '../../../protocol/protocol.js';
import type { Connection } from '../connection.js';
import type { Unsubscribe } from '../emitter.js';
import type { DocumentEditor } from './document-editor.js';

/**
 * Tells the host which editor the page shows, its mode and its selection, for
 * `selection.get` and `selection.set`. One report is in flight at a time and
 * the next one carries only the latest state, so a mouse drag costs one
 * message per round trip. While the editor has changes the host has not
 * confirmed, its positions count in a text the host does not have yet: the
 * report waits for the confirmation, which comes back as an update.
 */
export class SelectionReporter {
  #editor: DocumentEditor | null = null;
  #unsubscribe: Unsubscribe | null = null;
  #sent: string | null = null;
  #inFlight = false;
  #again = false;

  constructor(private readonly connection: Connection) {}

  /** The editor the page now shows, or none. */
  show(editor: DocumentEditor | null): void {
    if (editor === this.#editor) return;
    this.#unsubscribe?.();
    this.#editor = editor;
    this.#unsubscribe = editor?.onViewUpdate(() => this.#schedule()) ?? null;
    this.#schedule();
  }

  #schedule(): void {
    if (this.#inFlight) {
      this.#again = true;
      return;
    }
    this.#inFlight = true;
    // A task of its own, not a microtask: the report is not part of showing the change that
    // caused it (a host's change, a keystroke) and most often goes in the wait for the next frame.
    setTimeout(() => void this.#send(), 0);
  }

  async #send(): Promise<void> {
    const editor = this.#editor;
    const report = editor === null ? null : reportOf(editor);
    const key = JSON.stringify(report);
    if (report !== undefined && key !== this.#sent) {
      this.#sent = key;
      try {
        const { accepted } = await this.connection.request('editor.report', { editor: report ?? null });
        // Refused as behind: the updates it lacked are arriving and will trigger another report.
        if (!accepted) this.#sent = null;
      } catch {
        // A lost connection or a closed tab; the next change reports afresh.
        this.#sent = null;
      }
    }
    this.#inFlight = false;
    if (this.#again) {
      this.#again = false;
      this.#schedule();
    }
  }
}

/** The editor's state for the host; `undefined` while it has unconfirmed changes. */
function reportOf(editor: DocumentEditor): EditorReport | undefined {
  const { state, hasFocus } = editor.view;
  if (sendableUpdates(state).length > 0) return undefined;
  const { from, to } = state.selection.main;
  return {
    tabId: editor.tab.id,
    mode: editor.mode,
    version: getSyncedVersion(state),
    from,
    to,
    focused: hasFocus,
  };
}
