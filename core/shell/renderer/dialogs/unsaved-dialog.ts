import type { UiTab } from '../../../protocol/protocol.js';
import { askChoice, paragraph } from './choice-dialog.js';

export type UnsavedAnswer = 'save' | 'discard' | 'cancel';

/**
 * What to do with a tab's unsaved changes when it is closed: Save (the default,
 * as in a desktop editor), Discard or Cancel. An untitled tab has no file to
 * save to, so it is asked only whether to discard it, and keeping it is the default.
 */
export function askUnsaved(
  container: HTMLElement,
  tab: Pick<UiTab, 'title' | 'filePath'>,
): Promise<UnsavedAnswer> {
  if (tab.filePath === null) {
    return askChoice<UnsavedAnswer>(container, {
      className: 'unsaved-dialog',
      title: `Discard “${tab.title}”?`,
      body: [paragraph('This document was never saved to a file: if you close it, its text is gone.')],
      choices: [
        { id: 'cancel', label: 'Cancel' },
        { id: 'discard', label: 'Discard', kind: 'danger' },
      ],
      focus: 'cancel',
      cancel: 'cancel',
    });
  }
  return askChoice<UnsavedAnswer>(container, {
    className: 'unsaved-dialog',
    title: `Save changes to “${tab.title}”?`,
    body: [
      paragraph(`${tab.filePath} has changes that are not saved.`),
      paragraph('Discard closes it without them; the file keeps what it holds now.'),
    ],
    choices: [
      { id: 'cancel', label: 'Cancel' },
      { id: 'discard', label: 'Discard', kind: 'danger' },
      { id: 'save', label: 'Save', kind: 'primary' },
    ],
    focus: 'save',
    cancel: 'cancel',
  });
}
