import type { HostWorkbench } from '../../workbench/workbench.js';
import type { UiPlugin } from '../../protocol/panel-protocol.js';
import type { RequestParams, RequestResult } from '../../protocol/protocol.js';
import { explainOpenFailure } from './open-refusal.js';

/**
 * A page's requests about its own window: opening files in it, its focus and its workspace rail.
 * `plugins` lists the plugins, to say which one would open a file that none that runs opens.
 */
export function windowHandlers(
  workbench: HostWorkbench,
  windowLabel: string,
  plugins: () => readonly UiPlugin[],
): {
  'tab.open': (params: RequestParams<'tab.open'>) => Promise<RequestResult<'tab.open'>>;
  'window.focus': (params: RequestParams<'window.focus'>) => RequestResult<'window.focus'>;
  'workspace.show': (params: RequestParams<'workspace.show'>) => RequestResult<'workspace.show'>;
} {
  return {
    'tab.open': async ({ path }) => {
      const { tabId } = await workbench.openFile(path, { windowLabel }).catch((error: unknown) => {
        throw explainOpenFailure(error, path, plugins());
      });
      workbench.switchTab(tabId);
      // Already open in another window: shown there, and that window comes forward, as a desktop
      // editor's would. The page a browser cannot raise says where it is (see the result).
      const owner = workbench.resolveTab(tabId).windowLabel;
      if (owner !== windowLabel) workbench.focusWindow(owner);
      const title = workbench
        .state()
        .find((w) => w.label === owner)
        ?.tabs.find((t) => t.id === tabId)?.title;
      return { tabId, windowLabel: owner, title: title ?? path };
    },
    'window.focus': () => {
      workbench.focusWindow(windowLabel);
      return { windowLabel };
    },
    'workspace.show': ({ workspaceInstanceId }) => workbench.showWorkspace(windowLabel, workspaceInstanceId),
  };
}
