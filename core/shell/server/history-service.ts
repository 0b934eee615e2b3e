import { mkdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Disposable } from '@vmark/sdk';
import { ArgumentError, DomainError, toDisposable } from '@vmark/sdk';
import type { HostDocumentStore } from '../../documents/document-store.js';
import type { FolderWatcher } from '../../documents/folder-watcher.js';
import type { Checkpoint, CheckpointEntry } from '../../history/checkpoint-entry.js';
import { type CheckpointStore, INDEX_FILE, UnknownCheckpointError } from '../../history/checkpoint-store.js';
import { sizeChange } from '../../history/describe-change.js';
import type { HostWorkbench } from '../../workbench/workbench.js';
import type { PanelMessage, PanelRequests, UiCheckpoint } from '../../protocol/panel-protocol.js';
import { debounce } from './debounce.js';

type RestoreResult = PanelRequests['history.restore']['result'];

/** A burst of index writes from another process (an append, a prune) is told once. */
const INDEX_SETTLE_MS = 50;

/**
 * The AI edit history panel's side in the host: the checkpoints, newest first,
 * a push to every window for each new one (this process's at once, other
 * processes' — `vmark checkpoints restore` in a terminal, another `vmark mcp` —
 * from a watch of the index while a window is attached), and restore with the
 * semantics of `vmark checkpoints restore`: the text from before the edit
 * becomes a new revision, saved through the host (a file changed on disk
 * meanwhile is not overwritten), shown live in open editors, and itself recorded.
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
   * @throws ArgumentError for an id that is not in the history; DomainError INVALID_PATH for an
   *   untitled document or a file that no longer exists, and the save's own refusals (a file
   *   changed on disk). Nothing is restored then.
   */
  async restore(id: string): Promise<RestoreResult> {
    let checkpoint: Checkpoint;
    try {
      checkpoint = await this.store.get(id);
    } catch (error) {
      if (error instanceof UnknownCheckpointError) throw new ArgumentError(error.message);
      throw error;
    }
    const { filePath } = checkpoint;
    if (filePath === null) {
      throw new DomainError(
        'INVALID_PATH',
        `Checkpoint ${id} is of an untitled document: there is no file to restore`,
      );
    }
    if ((await stat(filePath).catch(() => null))?.isFile() !== true) {
      throw new DomainError(
        'INVALID_PATH',
        `${JSON.stringify(filePath)} no longer exists; nothing was restored`,
      );
    }
    // The person chose this edit in the history: its file opens even outside the workspace, as from the CLI.
    const { tabId } = await this.workbench.openFile(filePath, { consented: true });
    const { documentId } = this.workbench.resolveTab(tabId);
    const current = this.documents.get(documentId);
    if (current.content === checkpoint.contentBefore) {
      return { restored: id, filePath, revision: current.revision, changed: false };
    }
    await this.documents.replace(documentId, checkpoint.contentBefore, {
      origin: { kind: 'host' },
      expectedRevision: current.revision,
    });
    let saved;
    try {
      saved = await this.documents.save(documentId);
    } catch (error) {
      // Not saved (the file changed on disk, say): put the text back, so that nothing was restored.
      await this.documents
        .replace(documentId, current.content, { origin: { kind: 'host' } })
        .catch(() => undefined);
      throw error;
    }
    await this.store.append({
      tabId,
      filePath,
      tool: 'checkpoints.restore',
      description: `Restored ${id} (${sizeChange(current.content, checkpoint.contentBefore)})`,
      revisionBefore: current.revision,
      revisionAfter: saved.revision,
      contentBefore: current.content,
    });
    return { restored: id, filePath, revision: saved.revision, changed: true };
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
