import type { HostWorkbench } from '../../workbench/workbench.js';
import type { RequestParams, RequestResult } from '../protocol.js';

/** A page's requests about its own window: opening files in it, its focus and its workspace rail. */
export function windowHandlers(
  workbench: HostWorkbench,
  windowLabel: string,
): {
  'tab.open': (params: RequestParams<'tab.open'>) => Promise<RequestResult<'tab.open'>>;
  'window.focus': (params: RequestParams<'window.focus'>) => RequestResult<'window.focus'>;
  'workspace.show': (params: RequestParams<'workspace.show'>) => RequestResult<'workspace.show'>;
} {
  return {
    'tab.open': async ({ path }) => {
      const { tabId } = await workbench.openFile(path, { windowLabel });
      workbench.switchTab(tabId);
      // Already open in another window: that window comes forward, as a desktop editor's would.
      const owner = workbench.resolveTab(tabId).windowLabel;
      if (owner !== windowLabel) workbench.focusWindow(owner);
      return { tabId };
    },
    'window.focus': () => {
      workbench.focusWindow(windowLabel);
      return { windowLabel };
    },
    'workspace.show': ({ workspaceInstanceId }) => workbench.showWorkspace(windowLabel, workspaceInstanceId),
  };
}
