import { mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Disposable } from '@vmark/sdk';
import { ArgumentError, toDisposable } from '@vmark/sdk';
import type { HostDocumentStore } from '../../documents/document-store.js';
import type { FolderWatcher } from '../../documents/folder-watcher.js';
import type { CheckpointEntry } from '../../history/checkpoint-entry.js';
import { type CheckpointStore, INDEX_FILE, UnknownCheckpointError } from '../../history/checkpoint-store.js';
import { restoreCheckpoint } from '../../history/restore-checkpoint.js';
import type { HostWorkbench } from '../../workbench/workbench.js';
import type { PanelMessage, PanelRequests, UiCheckpoint } from '../../protocol/panel-protocol.js';
import { debounce } from '../../workspace-files/debounce.js';

type RestoreResult = PanelRequests['history.restore']['result'];

/** A burst of index writes from another process (an append, a prune) is told once. */
const INDEX_SETTLE_MS = 50;

/**
 * The AI edit history panel's side in the host: the checkpoints, newest first,
 * a push to every window for each new one (this process's at once, other
 * processes' — `vmark checkpoints restore` in a terminal, another `vmark mcp` —
 * from a watch of the index while a window is attached), and restore: the one
 * `restoreCheckpoint` that `vmark checkpoints restore` runs too.
 */
export class UiHistory implements Disposable {
  readonly #sinks = new Set<(message: PanelMessage) => void>();
  readonly #subscription: Disposable;
  readonly #indexChanged = debounce(() => this.#send({ type: 'history.changed' }), INDEX_SETTLE_MS);
  /** The watch of the index, while any window is attached. */
  #watch: Promise<Disposable> | undefined;

  constructor(
    private readonly store: CheckpointStore,
    private readonly workbench: HostWorkbench,
    private readonly documents: HostDocumentStore,
    private readonly folders: Pick<FolderWatcher, 'watchFolder'>,
  ) {
    this.#subscription = store.onDidAppend((entry) => {
      this.#send({ type: 'history.added', checkpoint: uiCheckpoint(entry) });
    });
  }

  attach(sink: (message: PanelMessage) => void): Disposable {
    this.#sinks.add(sink);
    this.#watch ??= this.#watchIndex();
    return toDisposable(() => {
      this.#sinks.delete(sink);
      if (this.#sinks.size === 0) this.#unwatch();
    });
  }

  /** Checkpoints hold canonical paths, so the filter is made canonical too (a deleted file keeps its own). */
  async list(filePath?: string): Promise<UiCheckpoint[]> {
    let entries = await this.store.list();
    if (filePath !== undefined) {
      if (!path.isAbsolute(filePath)) throw new ArgumentError('filePath must be an absolute path');
      const canonical = await realpath(filePath).catch(() => filePath);
      entries = entries.filter((e) => e.filePath === canonical || e.filePath === filePath);
    }
    return entries.map(uiCheckpoint);
  }

  /**
   * `restoreCheckpoint`, as `vmark checkpoints restore` does it, shown live in open editors.
   * @throws ArgumentError for an id that is not in the history; its DomainErrors otherwise.
   */
  async restore(id: string): Promise<RestoreResult> {
    const { store, workbench, documents } = this;
    try {
      return await restoreCheckpoint({ store, workbench, documents, tabOutlivesCall: true }, id);
    } catch (error) {
      if (error instanceof UnknownCheckpointError) throw new ArgumentError(error.message);
      throw error;
    }
  }

  dispose(): void {
    this.#sinks.clear();
    this.#subscription.dispose();
    this.#unwatch();
  }

  #send(message: PanelMessage): void {
    for (const sink of [...this.#sinks]) sink(message);
  }

  /** The folder is made if missing (in VMARK_HOME, as the store would), so that the first checkpoint is seen. */
  async #watchIndex(): Promise<Disposable> {
    await mkdir(this.store.folder, { recursive: true, mode: 0o700 }).catch(() => undefined);
    return this.folders.watchFolder(this.store.folder, (name) => {
      if (name === INDEX_FILE || name === null) this.#indexChanged();
    });
  }

  #unwatch(): void {
    this.#indexChanged.cancel();
    const watch = this.#watch;
    this.#watch = undefined;
    void watch?.then((w) => w.dispose());
  }
}

function uiCheckpoint(entry: CheckpointEntry): UiCheckpoint {
  const { id, createdAt, tool, description, filePath } = entry;
  return { id, createdAt, tool, description, filePath };
}
