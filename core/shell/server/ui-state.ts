import path from 'node:path';
import type { Vault, Workbench } from '@vmark/sdk';
import type { UiState } from '../protocol.js';

/** What the renderer shows of the workbench: the main window's tabs and the workspace roots. */
export function uiState(workbench: Workbench, vault: Vault): UiState {
  const windows = workbench.state();
  const window = windows.find((w) => w.label === 'main') ?? windows[0];
  return {
    window: {
      label: window?.label ?? 'main',
      tabs: (window?.tabs ?? []).map(({ id, title, filePath, kind, dirty, active }) => ({
        id,
        title,
        filePath,
        kind,
        dirty,
        active,
      })),
    },
    roots: vault.roots().map((root) => ({ path: root, name: path.basename(root) || root })),
  };
}
