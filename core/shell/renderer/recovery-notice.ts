import type { UiRecoveredEdit } from '../recovery-protocol.js';
import type { Connection } from './connection.js';
import { element } from './element.js';

const DISK_NOTE: Record<UiRecoveredEdit['disk'], string> = {
  same: '',
  changed: ' The file has changed on disk since: saving the restored text replaces what is there now.',
  missing: ' Its file is gone: they come back in an untitled tab.',
  untitled: '',
};

/**
 * Over the editor, one bar per set of unsaved edits that an earlier vmark kept when it stopped
 * (ADR 34): Restore opens them as a tab with unsaved changes (the file on disk is untouched until
 * you save), Discard drops them. Every window follows what the others do.
 */
export class RecoveryNotice {
  readonly #root = element('div', 'recovery-notice');

  constructor(
    before: HTMLElement,
    private readonly connection: Connection,
    private readonly refused: (error: unknown) => void,
  ) {
    this.#root.setAttribute('role', 'status');
    this.#root.setAttribute('aria-label', 'Recovered edits');
    before.before(this.#root);
    connection.onRecoveredEdits((edits) => this.#show(edits));
    connection.request('recovery.list', {}).then(({ edits }) => this.#show(edits), refused);
  }

  #show(edits: readonly UiRecoveredEdit[]): void {
    this.#root.replaceChildren(...edits.map((edit) => this.#bar(edit)));
  }

  #bar(edit: UiRecoveredEdit): HTMLElement {
    const kept = new Date(edit.keptAt).toLocaleString();
    const what =
      edit.filePath === null ? 'An untitled document’s unsaved text' : `Unsaved edits of ${edit.title}`;
    const text = element(
      'p',
      'recovery-text',
      `${what}, kept when vmark stopped (${kept}).${DISK_NOTE[edit.disk]}`,
    );
    if (edit.filePath !== null) text.title = edit.filePath;
    const bar = element('div', 'conflict-bar recovery-edit');
    bar.dataset.recoveryId = edit.id;
    bar.append(
      text,
      this.#button('Restore', () => this.connection.request('recovery.restore', { id: edit.id })),
      this.#button('Discard', () => this.connection.request('recovery.discard', { id: edit.id })),
    );
    return bar;
  }

  #button(label: string, act: () => Promise<unknown>): HTMLButtonElement {
    const button = element('button', 'recovery-choice', label);
    button.type = 'button';
    button.addEventListener('click', () => {
      button.disabled = true;
      // The host's `recovery.changed` takes the bar away; a refusal leaves it, to try again.
      act().then(
        () => undefined,
        (error: unknown) => {
          button.disabled = false;
          this.refused(error);
        },
      );
    });
    return button;
  }
}
