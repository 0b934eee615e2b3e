import type { UiConflict, UiTab } from '../../protocol/protocol.js';
import { element } from './element.js';

export type ConflictChoice = 'keep-mine' | 'take-disk' | 'close';

const TEXT: Record<UiConflict['reason'], string> = {
  'changed-on-disk':
    'This file changed on disk while you had unsaved changes here. Which version should stay?',
  'deleted-on-disk': 'This file was deleted or moved away on disk while it was open here.',
};

/**
 * The bar over the editor when the active tab and its file have parted ways (ADR 24): a
 * person says which version stays. The answer names the bytes on disk it was given for, so a
 * file that changed again meanwhile is not overwritten on the strength of an older answer.
 */
export class ConflictBar {
  #shown: string | null = null;

  constructor(
    private readonly bar: HTMLElement,
    private readonly answer: (tabId: string, choice: ConflictChoice, conflict: UiConflict) => void,
  ) {}

  show(tab: UiTab | null): void {
    const conflict = tab?.conflict;
    if (!tab || !conflict) {
      this.#shown = null;
      this.bar.hidden = true;
      this.bar.replaceChildren();
      return;
    }
    const key = `${tab.id} ${conflict.reason} ${conflict.diskSha256}`;
    if (key === this.#shown) return;
    this.#shown = key;
    const choices: [ConflictChoice, string][] =
      conflict.reason === 'changed-on-disk'
        ? [
            ['keep-mine', 'Keep my version'],
            ['take-disk', 'Use the version on disk'],
          ]
        : [
            ['keep-mine', 'Save it again'],
            ['close', 'Close without saving'],
          ];
    const buttons = choices.map(([choice, label]) => {
      const button = element('button', 'conflict-choice', label);
      button.type = 'button';
      button.dataset.choice = choice;
      button.addEventListener('click', () => this.answer(tab.id, choice, conflict));
      return button;
    });
    this.bar.replaceChildren(element('p', 'conflict-text', TEXT[conflict.reason]), ...buttons);
    this.bar.hidden = false;
  }
}
