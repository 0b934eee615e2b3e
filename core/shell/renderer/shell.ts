/** The page's fixed regions, found once in index.html. */
export interface Shell {
  readonly root: HTMLElement;
  readonly tree: HTMLElement;
  readonly tabs: HTMLElement;
  readonly modeGroup: HTMLElement;
  readonly modeButtons: readonly HTMLButtonElement[];
  readonly editorHost: HTMLElement;
  /** Above the editor: a conflict between the tab and its file on disk (conflict-bar.ts). */
  readonly conflictBar: HTMLElement;
  readonly emptyState: HTMLElement;
  readonly status: HTMLElement;
  /** The status bar's items: the path (`status`), then the counts and the cursor's place (comfort/status-info.ts). */
  readonly statusbar: HTMLElement;
  readonly toasts: HTMLElement;
  /** The right-hand panel slot (the AI edit history, …). */
  readonly panelSlot: HTMLElement;
  readonly historyButton: HTMLButtonElement;
  readonly pluginsButton: HTMLButtonElement;
  readonly settingsButton: HTMLButtonElement;
  /** The window's workspace instances (workspace-rail.ts). */
  readonly rail: HTMLElement;
  /** Where plugins' panels go besides the right-hand slot (ADR 20), and their buttons. */
  readonly sidebarSlot: HTMLElement;
  readonly bottomSlot: HTMLElement;
  readonly toolButtons: HTMLElement;
}

export function findShell(document: Document): Shell {
  const find = <T extends HTMLElement>(selector: string): T => {
    const element = document.querySelector<T>(selector);
    if (!element) throw new Error(`index.html lacks ${selector}`);
    return element;
  };
  return {
    root: find('.app'),
    tree: find('.file-tree'),
    tabs: find('.tabs'),
    modeGroup: find('.mode-switch'),
    modeButtons: [...document.querySelectorAll<HTMLButtonElement>('.mode-switch button')],
    editorHost: find('.editor-host'),
    conflictBar: find('.conflict-bar'),
    emptyState: find('.empty-state'),
    status: find('.status-path'),
    statusbar: find('.statusbar-row'),
    toasts: find('.toasts'),
    panelSlot: find('.panel-slot'),
    historyButton: find('.tool-button[data-action=history]'),
    pluginsButton: find('.tool-button[data-action=plugins]'),
    settingsButton: find('.tool-button[data-action=settings]'),
    rail: find('.workspace-rail'),
    sidebarSlot: find('[data-slot=sidebar]'),
    bottomSlot: find('[data-slot=bottom]'),
    toolButtons: find('.tool-buttons'),
  };
}
