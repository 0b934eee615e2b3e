/** One entry of a context menu; `null` draws a separator. */
export interface MenuItem {
  readonly label: string;
  readonly run: () => void;
  readonly danger?: boolean;
}

/**
 * A small context menu at the pointer (or under a row opened from the keyboard): arrows move,
 * Enter runs, Esc or a click elsewhere closes. One at a time.
 */
export function showContextMenu(x: number, y: number, items: readonly (MenuItem | null)[]): () => void {
  document.querySelector('.context-menu')?.remove();
  const menu = document.createElement('div');
  menu.className = 'context-menu';
  menu.setAttribute('role', 'menu');
  const buttons: HTMLButtonElement[] = [];
  const close = () => {
    menu.remove();
    document.removeEventListener('pointerdown', outside, true);
  };
  const outside = (event: Event) => {
    if (!menu.contains(event.target as Node)) close();
  };
  for (const item of items) {
    if (item === null) {
      const line = document.createElement('div');
      line.className = 'context-menu-separator';
      line.setAttribute('role', 'separator');
      menu.append(line);
      continue;
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.className = item.danger ? 'context-menu-item is-danger' : 'context-menu-item';
    button.setAttribute('role', 'menuitem');
    button.textContent = item.label;
    button.addEventListener('click', () => {
      close();
      item.run();
    });
    buttons.push(button);
    menu.append(button);
  }
  menu.addEventListener('keydown', (event) => {
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') close();
    else if (event.key === 'ArrowDown') buttons[(at + 1) % buttons.length]?.focus();
    else if (event.key === 'ArrowUp') buttons[(at - 1 + buttons.length) % buttons.length]?.focus();
    else return;
    event.preventDefault();
    event.stopPropagation();
  });
  document.body.append(menu);
  const { width, height } = menu.getBoundingClientRect();
  menu.style.left = `${Math.max(0, Math.min(x, innerWidth - width - 4))}px`;
  menu.style.top = `${Math.max(0, Math.min(y, innerHeight - height - 4))}px`;
  document.addEventListener('pointerdown', outside, true);
  buttons[0]?.focus();
  return close;
}
