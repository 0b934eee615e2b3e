import type { MovedEntry } from '../../protocol/files-protocol.js';
import type { TreeEntry, UiRoot } from '../../protocol/protocol.js';
import type { Connection } from './connection.js';
import { type MenuItem, showContextMenu } from './context-menu.js';
import type { ToastAction } from './toasts.js';

/** What the file list asks of the page around it. */
export interface TreeActions {
  readonly open: (path: string) => void;
  readonly refused: (error: unknown) => void;
  readonly notify: (message: string, kind: 'info' | 'error', actions?: readonly ToastAction[]) => void;
  /** Runs one of the editor's commands (the History panel, after links were updated). */
  readonly runCommand: (id: string) => void;
}

/** What a row dragged in the file list carries: its path. */
const DRAG_TYPE = 'application/x-vmark-path';

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
  /** Listings asked for and not yet answered. */
  pending: number;
  /** The latest listing asked for: what the rows will show once it is answered. */
  latest: Promise<void>;
}

/**
 * The workspace roots as a tree that lists each folder when it is unfolded.
 * The host follows every unfolded folder on disk and says when one changed,
 * so files and folders created, deleted or renamed by other programs show
 * without a reload; folding a folder lets the host stop following it (and
 * those inside it). Files open in a tab on click; the file of the active tab
 * is marked. A context menu (right click, or the menu key) creates, renames,
 * duplicates, deletes (to a trash, undoable) and copies paths (F2 and Delete on
 * a focused row rename and delete); a row dragged
 * onto a folder moves there (ADR 70). The host does each and says what it did
 * to the links to a moved note; the list follows through `tree.changed`.
 */
export class FileTree {
  #rootsKey = '';
  #roots: string[] = [];
  #activePath: string | null = null;
  /** The row the person last picked: a new note goes to its folder. */
  #selected: { readonly path: string; readonly type: TreeEntry['type'] } | null = null;
  /** Every folder shown, by the path it was listed by. */
  readonly #folders = new Map<string, FolderNode>();

  constructor(
    private readonly element: HTMLElement,
    private readonly connection: Connection,
    private readonly actions: TreeActions,
  ) {
    element.setAttribute('role', 'tree');
    element.addEventListener('contextmenu', (event) => this.#menu(event));
    // On a focused row: F2 renames, Delete moves to the trash (Undo offered), as in a file manager.
    element.addEventListener('keydown', (event) => {
      const row = (event.target as Element).closest<HTMLElement>('.tree-row');
      const path = row?.dataset.path;
      if (path === undefined || row?.dataset.root === 'true') return;
      if (event.key === 'F2') this.#rename(path);
      else if (event.key === 'Delete') void this.#delete(path);
      else return;
      event.preventDefault();
    });
    connection.onTreeChanged((path) => {
      const node = this.#folders.get(path);
      if (node?.followed) void this.#list(node, false);
    });
  }

  showRoots(roots: readonly UiRoot[]): void {
    const key = roots.map((r) => r.path).join('\n');
    if (key === this.#rootsKey) return;
    this.#rootsKey = key;
    this.#roots = roots.map((r) => r.path);
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
    const row = this.#row(entry, depth, root);
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
      pending: 0,
      latest: Promise.resolve(),
    };
    this.#folders.set(entry.path, node);
    row.addEventListener('click', () => {
      this.#selected = { path: entry.path, type: 'folder' };
      this.#toggle(node, !node.expanded);
    });
    this.#dropTarget(row, entry.path);
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
  #list(node: FolderNode, asked: boolean): Promise<void> {
    const listing = this.#listOnce(node, asked);
    node.latest = listing;
    return listing;
  }

  /** Until the folder's latest listing is shown: one that a change on disk started meanwhile too. */
  async #settled(node: FolderNode): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = node.latest;
      await seen;
    } while (seen !== node.latest);
  }

  async #listOnce(node: FolderNode, asked: boolean): Promise<void> {
    const generation = ++node.generation;
    let entries: TreeEntry[];
    node.pending++;
    try {
      ({ entries } = await this.connection.request('tree.list', { path: node.path }));
    } catch (error) {
      if (asked && node.expanded) this.actions.refused(error);
      return;
    } finally {
      node.pending--;
    }
    if (generation !== node.generation || !node.expanded || this.#folders.get(node.path) !== node) {
      this.#letGo(node.path);
      return;
    }
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

  /** The folder a new note goes to: the picked folder, the picked file's folder, else the first root. */
  selectedFolder(): string | null {
    const picked = this.#selected;
    if (picked !== null && this.#rowOf(picked.path) !== null)
      return picked.type === 'folder' ? picked.path : parentOf(picked.path);
    return this.#roots[0] ?? null;
  }

  /**
   * A new note (`Untitled.md`, numbered if taken) or folder in `folder`: created by the host, shown
   * unfolded, a note opened, and its name ready to type over.
   */
  async create(type: TreeEntry['type'], folder = this.selectedFolder()): Promise<void> {
    if (folder === null) {
      this.actions.notify('Open a workspace folder first: new notes are made in it.', 'info');
      return;
    }
    const name = type === 'file' ? 'Untitled.md' : 'Untitled folder';
    const created = await this.#ask(() =>
      this.connection.request('files.create', { folder, name, type, unique: true }),
    );
    if (created === undefined) return;
    await this.#unfold(folder);
    this.#selected = { path: created.path, type };
    // The note opens once named: its editor taking the focus would end the naming.
    this.#rename(created.path, type === 'file' ? (path) => this.actions.open(path) : undefined);
  }

  /** Unfolds every folder down to `file` and puts the keyboard focus on its row. */
  async reveal(file: string): Promise<void> {
    const root = this.#roots.find((r) => file.startsWith(r) && /^[\\/]/.test(file.slice(r.length)));
    if (root === undefined) return;
    let folder = root;
    for (const part of file
      .slice(root.length + 1)
      .split(/[\\/]/)
      .slice(0, -1)) {
      await this.#unfold(folder);
      folder = `${folder}${file[root.length]}${part}`;
    }
    await this.#unfold(folder);
    const row = this.#rowOf(file);
    if (row === null) return;
    row.scrollIntoView({ block: 'nearest' });
    row.focus();
    row.classList.add('is-revealed');
    row.addEventListener('blur', () => row.classList.remove('is-revealed'), { once: true });
  }

  /** Unfolds the folder (listing it) or, when it is unfolded already, lists it again now. */
  async #unfold(folder: string): Promise<void> {
    const node = this.#folders.get(folder);
    if (node === undefined) return;
    if (!node.expanded) {
      node.expanded = true;
      this.#showExpanded(node);
    }
    void this.#list(node, true);
    await this.#settled(node);
  }

  #rowOf(path: string): HTMLElement | null {
    return (
      [...this.element.querySelectorAll<HTMLElement>('.tree-row')].find((row) => row.dataset.path === path) ??
      null
    );
  }

  #menu(event: MouseEvent): void {
    const row = (event.target as Element).closest<HTMLElement>('.tree-row');
    const path = row?.dataset.path ?? this.#roots[0];
    if (path === undefined) return;
    event.preventDefault();
    const type = (row?.dataset.type ?? 'folder') as TreeEntry['type'];
    const root = row === null || row.dataset.root === 'true';
    this.#selected = { path, type };
    const folder = type === 'folder' ? path : parentOf(path);
    const items: (MenuItem | null)[] = [];
    if (type === 'file') items.push({ label: 'Open', run: () => this.actions.open(path) }, null);
    items.push(
      { label: 'New note', run: () => void this.create('file', folder) },
      { label: 'New folder', run: () => void this.create('folder', folder) },
      null,
    );
    if (!root)
      items.push(
        { label: 'Rename…', run: () => this.#rename(path) },
        {
          label: 'Duplicate',
          run: () => void this.#ask(() => this.connection.request('files.duplicate', { path })),
        },
      );
    items.push({ label: 'Copy path', run: () => void this.#copyPath(path) });
    if (!root) items.push(null, { label: 'Delete', danger: true, run: () => void this.#delete(path) });
    // Opened from the keyboard (the menu key, Shift+F10): under the row rather than at the corner.
    const box = row?.getBoundingClientRect();
    const keyboard = event.clientX === 0 && event.clientY === 0 && box !== undefined;
    showContextMenu(keyboard ? box.left + 16 : event.clientX, keyboard ? box.bottom : event.clientY, items);
  }

  /**
   * The entry's name becomes a field: Enter or leaving it renames, Esc keeps the name. `then`
   * gets where the entry is afterwards.
   */
  #rename(path: string, then?: (path: string) => void): void {
    const row = this.#rowOf(path);
    if (row === null) {
      then?.(path);
      return;
    }
    const name = row.dataset.name ?? nameOf(path);
    const note = row.dataset.type === 'file' && /\.md$/i.test(name) && name.length > 3;
    const input = document.createElement('input');
    input.className = 'tree-rename';
    input.value = note ? name.slice(0, -3) : name;
    input.setAttribute('aria-label', `New name for ${name}`);
    input.style.marginLeft = `calc(10px + ${row.style.getPropertyValue('--depth') || '0'} * 14px)`;
    let done = false;
    const finish = (commit: boolean) => {
      if (done) return;
      done = true;
      const typed = note ? `${input.value}.md` : input.value;
      input.remove();
      row.hidden = false;
      if (commit && input.value !== '' && typed !== name)
        void this.#renamed(path, typed).then((moved) => then?.(moved ?? path));
      else {
        row.focus();
        then?.(path);
      }
    };
    input.addEventListener('keydown', (event) => {
      event.stopPropagation();
      if (event.key === 'Enter') finish(true);
      else if (event.key === 'Escape') finish(false);
    });
    input.addEventListener('blur', () => finish(true));
    row.hidden = true;
    row.after(input);
    input.focus();
    input.select();
  }

  /** Renames; where the entry is now, or undefined when the host refused (and the person was told). */
  async #renamed(path: string, name: string): Promise<string | undefined> {
    const moved = await this.#ask(() => this.connection.request('files.rename', { path, name }));
    if (moved === undefined) return undefined;
    // Undo is the rename back: the links that followed follow again.
    this.#linksNote(`Renamed to “${name}”`, moved, () =>
      this.connection.request('files.rename', { path: moved.path, name: nameOf(path) }),
    );
    return moved.path;
  }

  /** A row dragged onto a folder's row moves into that folder. */
  #dropTarget(row: HTMLElement, folder: string): void {
    const carries = (event: DragEvent) => event.dataTransfer?.types.includes(DRAG_TYPE) === true;
    row.addEventListener('dragover', (event) => {
      if (!carries(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
      row.classList.add('is-drop-target');
    });
    row.addEventListener('dragleave', () => row.classList.remove('is-drop-target'));
    row.addEventListener('drop', (event) => {
      row.classList.remove('is-drop-target');
      const path = event.dataTransfer?.getData(DRAG_TYPE);
      if (!carries(event) || !path) return;
      event.preventDefault();
      if (parentOf(path) === folder || path === folder) return;
      void this.#ask(() => this.connection.request('files.move', { path, folder })).then((moved) => {
        if (moved === undefined) return;
        this.#linksNote(`Moved “${nameOf(path)}” to “${nameOf(folder)}”`, moved, () =>
          this.connection.request('files.move', { path: moved.path, folder: parentOf(path) }),
        );
      });
    });
  }

  /**
   * What a rename or move did, said to the person: the links to it that were updated (History
   * keeps each note as it was), those that were not, and Undo — the move back, which takes the
   * links back with it.
   */
  #linksNote(what: string, moved: MovedEntry, back: (() => Promise<MovedEntry>) | null): void {
    const { links, notes, left } = moved.linkUpdate;
    const parts = [`${what}.`];
    if (links > 0)
      parts.push(
        `Updated ${plural(links, 'link')} in ${plural(notes, 'note')}; History keeps each note as it was.`,
      );
    if (left.length > 0) parts.push(`Not updated: ${left.join(' ')}`);
    const history: ToastAction[] =
      links > 0
        ? [{ label: 'Show History', run: () => this.actions.runCommand('vmark.history.toggle') }]
        : [];
    const undo: ToastAction[] =
      back === null
        ? []
        : [
            {
              label: 'Undo',
              run: () =>
                void this.#ask(back).then((undone) => {
                  if (undone !== undefined) this.#linksNote('Moved back', undone, null);
                }),
            },
          ];
    this.actions.notify(parts.join(' '), left.length > 0 ? 'error' : 'info', [...undo, ...history]);
  }

  async #delete(path: string): Promise<void> {
    const deleted = await this.#ask(() => this.connection.request('files.delete', { path }));
    if (deleted === undefined) return;
    const where = deleted.where === 'system' ? 'the trash' : 'the workspace’s .trash folder';
    const kept =
      deleted.keptTabs > 0
        ? ` ${plural(deleted.keptTabs, 'open tab')} with unsaved changes ${deleted.keptTabs === 1 ? 'keeps its' : 'keep their'} text.`
        : '';
    const undo: ToastAction = {
      label: 'Undo',
      run: () => void this.#ask(() => this.connection.request('files.restore', { trashId: deleted.trashId })),
    };
    this.actions.notify(`Moved “${nameOf(path)}” to ${where}.${kept}`, 'info', [undo]);
  }

  async #copyPath(path: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(path);
      this.actions.notify(`Copied ${path}`, 'info');
    } catch (error) {
      this.actions.refused(error);
    }
  }

  async #ask<T>(run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      this.actions.refused(error);
      return undefined;
    }
  }

  #child(entry: TreeEntry, depth: number): HTMLElement {
    if (entry.type === 'file') return this.#file(entry, depth);
    const item = this.#folder(entry, depth);
    item.dataset.folderPath = entry.path;
    return item;
  }

  /**
   * An answer that came after its folder was folded, or left the tree: the host follows a folder
   * from its listing on, and the fold (not knowing it was followed yet) did not tell it to stop.
   * It is told now, unless the folder shows again and a newer listing follows it.
   */
  #letGo(path: string): void {
    const shown = this.#folders.get(path);
    if (shown !== undefined && (shown.followed || shown.pending > 0)) return;
    void this.connection.request('tree.fold', { path }).catch(() => undefined);
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
    row.addEventListener('click', () => {
      this.#selected = { path: entry.path, type: 'file' };
      this.actions.open(entry.path);
    });
    return row;
  }

  #row(entry: TreeEntry, depth: number, root = false): HTMLButtonElement {
    const row = document.createElement('button');
    row.type = 'button';
    row.className = `tree-row tree-${entry.type}-row`;
    row.dataset.path = entry.path;
    row.dataset.type = entry.type;
    row.dataset.name = entry.name;
    if (root) row.dataset.root = 'true';
    else {
      row.draggable = true;
      row.addEventListener('dragstart', (event) => {
        event.dataTransfer?.setData(DRAG_TYPE, entry.path);
        if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
      });
    }
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

/** The folder holding `file` (an absolute path as the host wrote it, `/` or `\\`). */
function parentOf(file: string): string {
  return file.replace(/[\\/][^\\/]*$/, '') || file;
}

function nameOf(file: string): string {
  return file.slice(file.search(/[^\\/]*$/));
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Markdown files show without their extension, as in Obsidian; others keep theirs. */
function displayName(name: string): string {
  return /\.md$/i.test(name) && name.length > 3 ? name.slice(0, -3) : name;
}
