/** Short notices in a corner: refused requests, lost connection. They leave by themselves. */
export class Toasts {
  constructor(private readonly container: HTMLElement) {}

  show(message: string, kind: 'error' | 'info' = 'error', ms = 6000): void {
    const toast = document.createElement('div');
    toast.className = `toast toast-${kind}`;
    toast.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    toast.textContent = message;
    const close = () => toast.remove();
    toast.addEventListener('click', close);
    this.container.append(toast);
    setTimeout(close, ms);
  }
}
