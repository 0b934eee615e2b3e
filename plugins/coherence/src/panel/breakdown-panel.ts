/**
 * The host half of the coherence breakdown panel (ADR 20): the active workspace's
 * counts and its stale edges, read-only. Resolving an edge stays a person's act
 * (`vmark coherence` at a terminal), so the panel offers no actions.
 */
import type { PanelProvider, ReportProgress, Vault, Workbench } from '@vmark/sdk';
import { LoadProgress } from './load-progress.js';
import type { CoherenceWorkspace } from '../workspace/coherence-workspace.js';
import type { WorkspaceRegistry } from '../workspace/workspace-registry.js';

export const BREAKDOWN_PANEL_ID = 'breakdown';

/** One stale (non-fresh) edge: the downstream was made from an upstream that has since moved on. */
export interface BreakdownEdge {
  /** Workspace-relative path, or the object id when the file is gone. */
  readonly downstream: string;
  readonly upstream: string;
  readonly state: string;
  readonly confidence: string;
}

/** What the panel shows; `workspace` null when no workspace is open. */
export interface BreakdownView {
  readonly workspace: string | null;
  /** False until the workspace's first capture creates `.vmark/`. */
  readonly initialized: boolean;
  /** Documents carrying an id; null when the workspace has no ledger (it is not walked then). */
  readonly objects: number | null;
  readonly openItems: number;
  readonly quarantined: number;
  readonly edges: readonly BreakdownEdge[];
}

export interface BreakdownSources {
  readonly workspaces: WorkspaceRegistry;
  readonly workbench: Pick<Workbench, 'state'>;
  readonly vault: Pick<Vault, 'roots'>;
  /** Waits for the captures under way, so a load right after a write sees it. */
  readonly captured: () => Promise<void>;
}

/** `load` shows the breakdown; `progress` tells the page how far a long load (a first index build) has come. */
export function breakdownPanel(sources: BreakdownSources): PanelProvider {
  const loading = new LoadProgress();
  return {
    id: BREAKDOWN_PANEL_ID,
    load: () => loading.during((report) => loadBreakdown(sources, report)),
    actions: { progress: () => loading.latest },
  };
}

export async function loadBreakdown(
  sources: BreakdownSources,
  progress?: ReportProgress,
): Promise<BreakdownView> {
  await sources.captured();
  const workspace = await activeWorkspace(sources);
  if (workspace === null)
    return { workspace: null, initialized: false, objects: null, openItems: 0, quarantined: 0, edges: [] };
  // A workspace without a ledger is not even walked: its first capture is what starts coherence.
  if (!(await workspace.initialized()))
    return {
      workspace: workspace.root,
      initialized: false,
      objects: null,
      openItems: 0,
      quarantined: 0,
      edges: [],
    };
  // Edges first: listing them reconciles the files with the ledger, which the counts then reflect.
  const edges = await workspace.edges(progress);
  const status = await workspace.status(progress);
  return {
    workspace: workspace.root,
    initialized: status.initialized,
    objects: status.objects,
    openItems: status.open_items,
    quarantined: status.quarantined,
    edges: edges.map((e) => ({
      downstream: e.downstream_path ?? e.downstream,
      upstream: e.upstream_path ?? e.upstream,
      state: e.state,
      confidence: e.confidence,
    })),
  };
}

/** The workspace of the focused window's active tab; else the first open workspace. */
async function activeWorkspace({
  workspaces,
  workbench,
  vault,
}: BreakdownSources): Promise<CoherenceWorkspace | null> {
  const windows = workbench.state();
  const window = windows.find((w) => w.focused) ?? windows[0];
  const filePath = window?.tabs.find((t) => t.active)?.filePath ?? null;
  const holding = filePath === null ? null : await workspaces.containing(filePath);
  if (holding !== null) return holding.workspace;
  const first = vault.roots()[0];
  return first === undefined ? null : workspaces.forArgument(first);
}
