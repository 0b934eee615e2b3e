/** A button on a notice: what helps, e.g. turning a plugin back on. */
export interface ToastAction {
  readonly label: string;
  readonly run: () => void;
}

/** A notice that offers something stays this long, so that there is time to read it and choose. */
const WITH_ACTIONS_MS = 20_000;

/** Short notices in a corner: refused requests, lost connection. They leave by themselves, or on a click. */
export class Toasts {
  constructor(private readonly container: HTMLElement) {}

  show(message: string, kind: 'error' | 'info' = 'error', actions: readonly ToastAction[] = []): void {
    const toast = document.createElement('div');
    toast.className = `toast toast-${kind}`;
    toast.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    const text = document.createElement('span');
    text.className = 'toast-text';
    text.textContent = message;
    toast.append(text);
    const close = () => toast.remove();
    if (actions.length > 0) {
      const buttons = document.createElement('div');
      buttons.className = 'toast-actions';
      for (const action of actions) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'toast-action';
        button.textContent = action.label;
        button.addEventListener('click', () => action.run());
        buttons.append(button);
      }
      toast.append(buttons);
    }
    toast.addEventListener('click', close);
    this.container.append(toast);
    setTimeout(close, actions.length > 0 ? WITH_ACTIONS_MS : 6000);
  }
}
