import type { TreeEntry, UiRoot } from '../../protocol/protocol.js';
import type { Connection } from './connection.js';

/** A folder of the tree: its row, its children, and whether the host follows it for this page. */
interface FolderNode {
  readonly path: string;
  readonly depth: number;
  readonly item: HTMLElement;
  readonly row: HTMLButtonElement;
  readonly children: HTMLElement;
  /** Unfolded by the person (a root starts unfolded). */
  expanded: boolean;
  /** Listed since it was last unfolded, and so followed by the host (it pushes `tree.changed`). */
  followed: boolean;
  /** The child rows by `type:path`, so that a listing again keeps the unfolded ones as they are. */
  readonly childNodes: Map<string, HTMLElement>;
  /** Each listing gets a number; an answer to an older one is dropped. */
  generation: number;
}

/**
 * The workspace roots as a tree that lists each folder when it is unfolded.
 * The host follows every unfolded folder on disk and says when one changed,
 * so files and folders created, deleted or renamed by other programs show
 * without a reload; folding a folder lets the host stop following it (and
 * those inside it). Files open in a tab on click; the file of the active tab
 * is marked.
 */
export class FileTree {
  #rootsKey = '';
  #activePath: string | null = null;
  /** Every folder shown, by the path it was listed by. */
  readonly #folders = new Map<string, FolderNode>();

  constructor(
    private readonly element: HTMLElement,
    private readonly connection: Connection,
    private readonly open: (path: string) => void,
    private readonly refused: (error: unknown) => void,
  ) {
    element.setAttribute('role', 'tree');
    connection.onTreeChanged((path) => {
      const node = this.#folders.get(path);
      if (node?.followed) void this.#list(node, false);
    });
  }

  showRoots(roots: readonly UiRoot[]): void {
    const key = roots.map((r) => r.path).join('\n');
    if (key === this.#rootsKey) return;
    this.#rootsKey = key;
    for (const node of [...this.#folders.values()]) this.#forget(node);
    this.element.replaceChildren();
    if (roots.length === 0) {
      const empty = document.createElement('p');
      empty.className = 'tree-empty';
      empty.textContent = 'No workspace folder is open.';
      this.element.append(empty);
      return;
    }
    for (const root of roots) {
      this.element.append(this.#folder({ name: root.name, path: root.path, type: 'folder' }, 0, true));
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
    const node: FolderNode = {
      path: entry.path,
      depth,
      item,
      row,
      children,
      expanded: root,
      followed: false,
      childNodes: new Map(),
      generation: 0,
    };
    this.#folders.set(entry.path, node);
    row.addEventListener('click', () => this.#toggle(node, !node.expanded));
    this.#showExpanded(node);
    if (root) void this.#list(node, true);
    return item;
  }

  #toggle(node: FolderNode, expand: boolean): void {
    node.expanded = expand;
    this.#showExpanded(node);
    if (expand) void this.#list(node, true);
    else this.#unfollow(node);
  }

  #showExpanded(node: FolderNode): void {
    node.row.setAttribute('aria-expanded', String(node.expanded));
    node.children.hidden = !node.expanded;
  }

  /**
   * Lists the folder (the host follows it from then on) and brings its rows in line: new
   * entries are added, gone ones removed, and the rows that stay are kept, unfolded ones
   * with what they show. A listing the person asked for says why it failed; one that
   * follows a change does not (the folder itself may be what went away).
   */
  async #list(node: FolderNode, asked: boolean): Promise<void> {
    const generation = ++node.generation;
    let entries: TreeEntry[];
    try {
      ({ entries } = await this.connection.request('tree.list', { path: node.path }));
    } catch (error) {
      if (asked && node.expanded) this.refused(error);
      return;
    }
    // Folded or gone meanwhile: the fold that followed this listing already let the host stop.
    if (generation !== node.generation || !node.expanded || this.#folders.get(node.path) !== node) return;
    node.followed = true;
    const wanted = new Map<string, HTMLElement>();
    for (const entry of entries) {
      const key = `${entry.type}:${entry.path}`;
      wanted.set(key, node.childNodes.get(key) ?? this.#child(entry, node.depth + 1));
    }
    for (const [key, child] of node.childNodes) {
      if (wanted.has(key)) continue;
      const gone = this.#folders.get(child.dataset.folderPath ?? '');
      if (gone) this.#forget(gone);
      child.remove();
    }
    node.childNodes.clear();
    // Moves only what must move, so that the row with the keyboard focus keeps it.
    let cursor = node.children.firstElementChild;
    for (const [key, child] of wanted) {
      node.childNodes.set(key, child);
      if (child === cursor) cursor = cursor.nextElementSibling;
      else node.children.insertBefore(child, cursor);
    }
    this.markActive(this.#activePath);
    // Folders inside that stayed unfolded while this one was folded are listed (and followed) again.
    for (const child of wanted.values()) {
      const inner = this.#folders.get(child.dataset.folderPath ?? '');
      if (inner?.expanded && !inner.followed) void this.#list(inner, false);
    }
  }

  #child(entry: TreeEntry, depth: number): HTMLElement {
    if (entry.type === 'file') return this.#file(entry, depth);
    const item = this.#folder(entry, depth);
    item.dataset.folderPath = entry.path;
    return item;
  }

  /** The host stops following the folder and every followed folder inside it; they list afresh when shown. */
  #unfollow(node: FolderNode): void {
    node.generation++;
    if (node.followed) void this.connection.request('tree.fold', { path: node.path }).catch(() => undefined);
    node.followed = false;
    for (const child of node.childNodes.values()) {
      const inner = this.#folders.get(child.dataset.folderPath ?? '');
      if (inner) this.#unfollow(inner);
    }
  }

  /** The folder leaves the tree (gone on disk, or the roots changed), with everything inside it. */
  #forget(node: FolderNode): void {
    this.#unfollow(node);
    this.#folders.delete(node.path);
    for (const child of node.childNodes.values()) {
      const inner = this.#folders.get(child.dataset.folderPath ?? '');
      if (inner) this.#forget(inner);
    }
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
