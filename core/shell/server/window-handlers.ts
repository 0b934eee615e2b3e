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
    'tab.open': ({ path }) => openInWindow(workbench, windowLabel, plugins, path, { show: true }),
    'window.focus': () => {
      workbench.focusWindow(windowLabel);
      return { windowLabel };
    },
    'workspace.show': ({ workspaceInstanceId }) => workbench.showWorkspace(windowLabel, workspaceInstanceId),
  };
}

/**
 * Opens the file in the page's window (`show`: and shows its tab), or, when it is open already,
 * shows it where it is: another window's tab brings that window forward, as a desktop editor's
 * would. The page a browser cannot raise says where it is (see the result).
 */
export async function openInWindow(
  workbench: HostWorkbench,
  windowLabel: string,
  plugins: () => readonly UiPlugin[],
  path: string,
  options: { show: boolean },
): Promise<RequestResult<'tab.open'>> {
  const { tabId } = await workbench.openFile(path, { windowLabel }).catch((error: unknown) => {
    throw explainOpenFailure(error, path, plugins());
  });
  const owner = workbench.resolveTab(tabId).windowLabel;
  if (options.show || owner !== windowLabel) workbench.switchTab(tabId);
  if (owner !== windowLabel) workbench.focusWindow(owner);
  const title = workbench
    .state()
    .find((w) => w.label === owner)
    ?.tabs.find((t) => t.id === tabId)?.title;
  return { tabId, windowLabel: owner, title: title ?? path };
}
