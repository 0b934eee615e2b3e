import path from 'node:path';
import type { Disposable, Vault } from '@vmark/sdk';
import type { PathMatch } from '../../matching/path-index.js';
import type { UiPlugin } from '../../protocol/panel-protocol.js';
import type { RequestParams, RequestResult } from '../../protocol/protocol.js';
import type { QuickOpenIndexState, QuickOpenItem } from '../../protocol/quick-open-protocol.js';
import type { RecentFiles } from '../../workbench/recent-files.js';
import type { HostWorkbench } from '../../workbench/workbench.js';
import { openInWindow } from './window-handlers.js';
import type { HostWorkspaceFiles } from '../../workspace-files/host-workspace-files.js';
import type { WorkspaceFileIndex } from '../../workspace-files/workspace-file-index.js';

/** How many files a query answers when the page does not say. */
const DEFAULT_LIMIT = 50;

/**
 * Quick open's host side (ADR 62): the files are the host's `WorkspaceFiles` (one index per
 * workspace root, started by the first query that needs it and kept current from then on, shared
 * with vault search and the plugins, ADR 76), and the person's recent files.
 */
export class QuickOpenService implements Disposable {
  constructor(
    private readonly workbench: HostWorkbench,
    private readonly vault: Vault,
    private readonly files: Pick<HostWorkspaceFiles, 'indexOf'>,
    private readonly recent: RecentFiles,
  ) {}

  /** The index of a workspace root, started on first use. */
  indexOf(root: string): WorkspaceFileIndex {
    return this.files.indexOf(root);
  }

  /** The roots a window's quick open searches: the workspace it shows, else all of its own, else every root. */
  rootsOf(windowLabel: string): readonly string[] {
    const window = this.workbench.state().find((w) => w.label === windowLabel);
    const workspaces = this.workbench.hasWindow(windowLabel) ? this.workbench.workspaces(windowLabel) : [];
    const shown = workspaces.find((w) => w.id === window?.activeWorkspaceInstanceId);
    if (shown) return [shown.root];
    return workspaces.length > 0 ? workspaces.map((w) => w.root) : this.vault.roots();
  }

  async query(
    windowLabel: string,
    query: string,
    limit = DEFAULT_LIMIT,
  ): Promise<RequestResult<'quickOpen.query'>> {
    const roots = this.rootsOf(windowLabel);
    const several = roots.length > 1;
    const found: { root: string; match: PathMatch; recent: boolean }[] = [];
    const states: QuickOpenIndexState[] = [];
    for (const root of roots) {
      const index = this.indexOf(root);
      const recent = await this.recent.list(root);
      const recentSet = new Set(recent);
      for (const match of index.index.query(query, recent, limit)) {
        found.push({ root, match, recent: recentSet.has(match.item) });
      }
      states.push(index.status());
    }
    // Each root answered its best; across roots, by score (an empty query: recent first, in root order).
    if (several)
      found.sort((a, b) =>
        query.trim() === '' ? Number(b.recent) - Number(a.recent) : b.match.score - a.match.score,
      );
    const items = found.slice(0, limit).map(({ root, match, recent }): QuickOpenItem => {
      const prefix = several ? `${path.basename(root) || root}/` : '';
      return {
        path: path.join(root, ...match.item.split('/')),
        label: prefix + match.item,
        positions: match.positions.map((p) => p + prefix.length),
        recent,
      };
    });
    return {
      items,
      index: {
        building: states.some((s) => s.building),
        files: states.reduce((sum, s) => sum + s.files, 0),
        notes: states.flatMap((s) => s.notes),
      },
    };
  }

  /** The person opened `filePath` (a tab they picked, a file they opened): it becomes their most recent. */
  async opened(filePath: string | null): Promise<void> {
    if (filePath !== null) await this.recent.opened(filePath, this.vault.roots());
  }

  handlers(
    windowLabel: string,
    plugins: () => readonly UiPlugin[],
  ): {
    'quickOpen.query': (
      params: RequestParams<'quickOpen.query'>,
    ) => Promise<RequestResult<'quickOpen.query'>>;
    'quickOpen.open': (params: RequestParams<'quickOpen.open'>) => Promise<RequestResult<'quickOpen.open'>>;
  } {
    return {
      'quickOpen.query': ({ query, limit }) => this.query(windowLabel, query, limit),
      'quickOpen.open': async ({ path: file, background }) => {
        const opened = await openInWindow(this.workbench, windowLabel, plugins, file, { show: !background });
        await this.opened(this.fileOfTab(opened.tabId));
        return opened;
      },
    };
  }

  /** The tab's file, as the workbench resolved it (canonical), not as the page spelled it. */
  fileOfTab(tabId: string): string | null {
    for (const window of this.workbench.state()) {
      const tab = window.tabs.find((t) => t.id === tabId);
      if (tab) return tab.filePath;
    }
    return null;
  }

  /** Resolves once the recent files are on disk: before the host stops. */
  flushed(): Promise<void> {
    return this.recent.flushed();
  }

  dispose(): void {
    // The indexes are the host's, shared with vault search and the plugins: they go with the host.
  }
}
