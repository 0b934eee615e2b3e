import { element } from '../element.js';

/**
 * A modal opened from a toolbar button (Plugins, Settings): a titled dialog with a close
 * button, closed by Esc, the close button or a click on the backdrop, and the button's
 * `aria-expanded` kept true exactly while it is open.
 */
export class ToolbarModal {
  readonly dialog: HTMLDialogElement;

  constructor(
    container: HTMLElement,
    private readonly button: HTMLButtonElement,
    options: { readonly id: string; readonly className: string; readonly title: string },
  ) {
    this.dialog = element('dialog', `modal ${options.className}`);
    this.dialog.setAttribute('aria-labelledby', `${options.id}-title`);
    const header = element('header', 'modal-header');
    const title = element('h2', 'modal-title', options.title);
    title.id = `${options.id}-title`;
    const close = element('button', 'modal-close');
    close.type = 'button';
    close.setAttribute('aria-label', 'Close');
    close.addEventListener('click', () => this.dialog.close());
    header.append(title, close);
    this.dialog.append(header);
    // A click on the backdrop (outside the panel) closes it, as Esc does.
    this.dialog.addEventListener('click', (event) => {
      if (event.target === this.dialog) this.dialog.close();
    });
    this.dialog.addEventListener('close', () => button.setAttribute('aria-expanded', 'false'));
    container.append(this.dialog);
    button.setAttribute('aria-expanded', 'false');
  }

  /** Shows the dialog (if not shown yet) with whatever its owner rendered into it. */
  show(): void {
    if (!this.dialog.open) this.dialog.showModal();
    this.button.setAttribute('aria-expanded', 'true');
  }
}
