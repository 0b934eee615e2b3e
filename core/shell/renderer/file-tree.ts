import type { TreeEntry, UiRoot } from '../protocol.js';
import type { Connection } from './connection.js';

/**
 * The workspace roots as a tree that lists each folder when it is first
 * unfolded. Files open in a tab on click; the file of the active tab is marked.
 */
export class FileTree {
  #rootsKey = '';
  #activePath: string | null = null;

  constructor(
    private readonly element: HTMLElement,
    private readonly connection: Connection,
    private readonly open: (path: string) => void,
    private readonly refused: (error: unknown) => void,
  ) {
    element.setAttribute('role', 'tree');
  }

  showRoots(roots: readonly UiRoot[]): void {
    const key = roots.map((r) => r.path).join('\n');
    if (key === this.#rootsKey) return;
    this.#rootsKey = key;
    this.element.replaceChildren();
    if (roots.length === 0) {
      const empty = document.createElement('p');
      empty.className = 'tree-empty';
      empty.textContent = 'No workspace folder is open.';
      this.element.append(empty);
      return;
    }
    for (const root of roots) {
      const item = this.#folder({ name: root.name, path: root.path, type: 'folder' }, 0, true);
      this.element.append(item);
    }
  }

  markActive(filePath: string | null): void {
    this.#activePath = filePath;
    for (const row of this.element.querySelectorAll<HTMLElement>('.tree-file')) {
      row.classList.toggle('is-active', row.dataset.path === filePath);
      row.setAttribute('aria-selected', String(row.dataset.path === filePath));
    }
  }

  #folder(entry: TreeEntry, depth: number, root = false): HTMLElement {
    const item = document.createElement('div');
    item.className = root ? 'tree-folder tree-root' : 'tree-folder';
    const row = this.#row(entry, depth);
    const children = document.createElement('div');
    children.className = 'tree-children';
    children.setAttribute('role', 'group');
    item.append(row, children);
    let loaded = false;
    const toggle = async (expand: boolean) => {
      row.setAttribute('aria-expanded', String(expand));
      children.hidden = !expand;
      if (!expand || loaded) return;
      loaded = true;
      try {
        const { entries } = await this.connection.request('tree.list', { path: entry.path });
        children.replaceChildren(
          ...entries.map((child) =>
            child.type === 'folder' ? this.#folder(child, depth + 1) : this.#file(child, depth + 1),
          ),
        );
        this.markActive(this.#activePath);
      } catch (error) {
        loaded = false;
        this.refused(error);
      }
    };
    row.addEventListener('click', () => void toggle(row.getAttribute('aria-expanded') !== 'true'));
    void toggle(root);
    return item;
  }

  #file(entry: TreeEntry, depth: number): HTMLElement {
    const row = this.#row(entry, depth);
    row.classList.add('tree-file');
    row.dataset.path = entry.path;
    row.addEventListener('click', () => this.open(entry.path));
    return row;
  }

  #row(entry: TreeEntry, depth: number): HTMLButtonElement {
    const row = document.createElement('button');
    row.type = 'button';
    row.className = `tree-row tree-${entry.type}-row`;
    row.setAttribute('role', 'treeitem');
    row.title = entry.path;
    row.style.setProperty('--depth', String(depth));
    const label = document.createElement('span');
    label.className = 'tree-label';
    label.textContent = entry.type === 'file' ? displayName(entry.name) : entry.name;
    row.append(label);
    return row;
  }
}

/** Markdown files show without their extension, as in Obsidian; others keep theirs. */
function displayName(name: string): string {
  return /\.md$/i.test(name) && name.length > 3 ? name.slice(0, -3) : name;
}
