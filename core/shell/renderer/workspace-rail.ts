import type { UiRoot, UiState, UiWindow, UiWorkspace } from '../../protocol/protocol.js';
import type { Connection } from './connection.js';
import { element } from './element.js';
import type { Unsubscribe } from './emitter.js';

/**
 * The narrow rail at the window's left: one button per workspace instance of
 * this window, the shown one highlighted. Choosing one asks the host to show
 * it; the file tree and the tab strip follow the state the host sends back.
 * The rail stays out of the way while the window has no workspace.
 */
export class WorkspaceRail {
  readonly #unsubscribe: Unsubscribe;
  #key = '';

  constructor(
    private readonly rail: HTMLElement,
    private readonly root: HTMLElement,
    private readonly connection: Connection,
    private readonly refused: (error: unknown) => void,
  ) {
    rail.setAttribute('aria-label', 'Workspaces');
    this.#unsubscribe = connection.onState((state) => this.#show(state.window));
  }

  dispose(): void {
    this.#unsubscribe();
  }

  #show(window: UiWindow): void {
    const key = JSON.stringify([window.workspaces, window.activeWorkspaceInstanceId]);
    if (key === this.#key) return;
    this.#key = key;
    this.rail.hidden = window.workspaces.length === 0;
    this.root.classList.toggle('has-rail', window.workspaces.length > 0);
    this.rail.replaceChildren(
      ...window.workspaces.map((workspace) =>
        this.#item(workspace, workspace.id === window.activeWorkspaceInstanceId),
      ),
    );
  }

  #item(workspace: UiWorkspace, active: boolean): HTMLButtonElement {
    const item = element('button', 'rail-item', initials(workspace.name));
    item.type = 'button';
    item.title = workspace.path;
    item.dataset.workspaceInstanceId = workspace.id;
    item.setAttribute('aria-label', workspace.name);
    item.classList.toggle('is-active', active);
    if (active) item.setAttribute('aria-current', 'true');
    item.addEventListener('click', () => {
      if (active) return;
      this.connection
        .request('workspace.show', { workspaceInstanceId: workspace.id })
        .catch((error: unknown) => this.refused(error));
    });
    return item;
  }
}

/** The folders the file tree shows: the shown workspace's, or every root while the window shows none. */
export function shownRoots(state: UiState): readonly UiRoot[] {
  const { workspaces, activeWorkspaceInstanceId } = state.window;
  const shown = workspaces.find((w) => w.id === activeWorkspaceInstanceId);
  return shown ? [{ path: shown.path, name: shown.name }] : state.roots;
}

/** Up to two letters that tell folders apart at a glance: `my-notes` → `MN`, `Journal` → `JO`. */
function initials(name: string): string {
  const words = name.split(/[\s._-]+/u).filter((w) => w.length > 0);
  const letters =
    words.length >= 2 ? [...words[0]!].slice(0, 1).concat([...words[1]!].slice(0, 1)) : [...name].slice(0, 2);
  return letters.join('').toUpperCase();
}
