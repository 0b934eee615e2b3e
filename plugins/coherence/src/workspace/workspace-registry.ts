/** One `CoherenceWorkspace` per workspace root, kept for the host's life so its caches stay warm. */
import path from 'node:path';
import type { Disposable, Vault } from '@vmark/sdk';
import type { GrantRecord } from '../delegation/grant-record.js';
import { CoherenceWorkspace } from './coherence-workspace.js';
import type { Clock } from './workspace-ledger.js';
import { checkWorkspaceRoot } from './workspace-root.js';

export interface WorkspaceFileRef {
  readonly workspace: CoherenceWorkspace;
  /** Workspace-relative, `/`-separated: the form the ledger records. */
  readonly path: string;
}

export class WorkspaceRegistry implements Disposable {
  // Promises, so two first calls at once share one workspace (and its queue).
  readonly #workspaces = new Map<string, Promise<CoherenceWorkspace>>();
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly vault: Pick<Vault, 'roots'>,
    private readonly writer: () => Promise<string>,
    private readonly grants: GrantRecord,
    private readonly clock?: Clock,
  ) {}

  /** The workspace a tool names in `workspace_root` (plain-string refusals). */
  async forArgument(input: string): Promise<CoherenceWorkspace> {
    return this.#get(await checkWorkspaceRoot(input, this.vault.roots()));
  }

  /** The open workspace holding `filePath` (canonical), or null. */
  async containing(filePath: string): Promise<WorkspaceFileRef | null> {
    // The innermost root wins when workspaces nest.
    const root = [...this.vault.roots()]
      .sort((a, b) => b.length - a.length)
      .find((r) => filePath.startsWith(r.endsWith(path.sep) ? r : r + path.sep));
    if (root === undefined) return null;
    const relative = path.relative(root, filePath).split(path.sep).join('/');
    return { workspace: await this.#get(root), path: relative };
  }

  /** Writes every workspace's pending on-disk index (those `dispose` let go of included). */
  async flush(): Promise<void> {
    await this.#flushing;
    await Promise.all(
      [...this.#workspaces.values()].map((w) =>
        w.then(
          (workspace) => workspace.flush(),
          () => undefined,
        ),
      ),
    );
  }

  /** Stops every workspace's file watching (those still starting stop as they start). */
  dispose(): void {
    const all = [...this.#workspaces.values()];
    this.#workspaces.clear();
    this.#flushing = Promise.all(
      all.map((workspace) =>
        workspace.then(
          (w) => {
            w.dispose();
            return w.flush();
          },
          () => undefined,
        ),
      ),
    ).then(() => undefined);
  }

  #get(root: string): Promise<CoherenceWorkspace> {
    let workspace = this.#workspaces.get(root);
    if (!workspace) {
      workspace = this.writer().then(
        (writer) => new CoherenceWorkspace(root, writer, this.grants, this.clock),
      );
      this.#workspaces.set(root, workspace);
      // A failed start (e.g. an unreadable writer id) is retried by the next call.
      workspace.catch(() => this.#workspaces.delete(root));
    }
    return workspace;
  }
}
