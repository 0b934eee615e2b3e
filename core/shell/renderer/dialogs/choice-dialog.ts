import { element } from '../element.js';

export interface Choice<T extends string> {
  readonly id: T;
  readonly label: string;
  /** `primary`: the answer the question leads to; `danger`: one that loses something. */
  readonly kind?: 'primary' | 'danger';
}

export interface ChoiceQuestion<T extends string> {
  /** Names the dialog for styles and tests, e.g. `unsaved-dialog`. */
  readonly className: string;
  readonly title: string;
  readonly body: readonly Node[];
  /** In the order they are shown, left to right. */
  readonly choices: readonly Choice<T>[];
  /** The one with the focus when the dialog opens: Enter chooses it. */
  readonly focus: T;
  /** What Esc (or any other way the dialog closes unanswered) means. */
  readonly cancel: T;
}

let asked = 0;

/**
 * Asks the person a question in a modal dialog and resolves with their answer.
 * Enter chooses the focused button (the `focus` choice at first); Esc, the
 * browser closing the dialog, and a lost page are the `cancel` choice, so a
 * question that was not answered never counts as the answer that loses something.
 */
export function askChoice<T extends string>(container: HTMLElement, question: ChoiceQuestion<T>): Promise<T> {
  const id = `choice-${++asked}`;
  const dialog = element('dialog', `modal choice-dialog ${question.className}`);
  dialog.setAttribute('aria-labelledby', `${id}-title`);
  dialog.setAttribute('aria-describedby', `${id}-body`);
  const header = element('header', 'modal-header');
  const title = element('h2', 'modal-title', question.title);
  title.id = `${id}-title`;
  header.append(title);
  const body = element('div', 'modal-body');
  body.id = `${id}-body`;
  body.append(...question.body);
  const actions = element('footer', 'modal-actions');
  dialog.append(header, body, actions);

  return new Promise<T>((resolve) => {
    let answer = question.cancel;
    for (const choice of question.choices) {
      const kind = choice.kind === undefined ? '' : ` button-${choice.kind}`;
      const button = element('button', `button${kind}`, choice.label);
      button.type = 'button';
      button.dataset.choice = choice.id;
      button.addEventListener('click', () => {
        answer = choice.id;
        dialog.close();
      });
      actions.append(button);
    }
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(answer);
    });
    container.append(dialog);
    dialog.showModal();
    actions.querySelector<HTMLButtonElement>(`[data-choice="${CSS.escape(question.focus)}"]`)?.focus();
  });
}

/** A paragraph of the dialog's text. */
export function paragraph(text: string): HTMLElement {
  return element('p', 'choice-text', text);
}
