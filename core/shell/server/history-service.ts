import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Disposable } from '@vmark/sdk';
import { ArgumentError, DomainError, toDisposable } from '@vmark/sdk';
import type { HostDocumentStore } from '../../documents/document-store.js';
import type { Checkpoint, CheckpointEntry } from '../../history/checkpoint-entry.js';
import { type CheckpointStore, UnknownCheckpointError } from '../../history/checkpoint-store.js';
import { sizeChange } from '../../history/describe-change.js';
import type { HostWorkbench } from '../../workbench/workbench.js';
import type { PanelMessage, PanelRequests, UiCheckpoint } from '../panel-protocol.js';

type RestoreResult = PanelRequests['history.restore']['result'];

/**
 * The AI edit history panel's side in the host: the checkpoints, newest first,
 * a push to every window for each new one, and restore with the semantics of
 * `vmark checkpoints restore`: the text from before the edit becomes a new
 * revision, saved through the host (a file changed on disk meanwhile is not
 * overwritten), shown live in open editors, and itself recorded.
 */
export class UiHistory implements Disposable {
  readonly #sinks = new Set<(message: PanelMessage) => void>();
  readonly #subscription: Disposable;

  constructor(
    private readonly store: CheckpointStore,
    private readonly workbench: HostWorkbench,
    private readonly documents: HostDocumentStore,
  ) {
    this.#subscription = store.onDidAppend((entry) => {
      const message: PanelMessage = { type: 'history.added', checkpoint: uiCheckpoint(entry) };
      for (const sink of [...this.#sinks]) sink(message);
    });
  }

  attach(sink: (message: PanelMessage) => void): Disposable {
    this.#sinks.add(sink);
    return toDisposable(() => this.#sinks.delete(sink));
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
  }
}

function uiCheckpoint(entry: CheckpointEntry): UiCheckpoint {
  const { id, createdAt, tool, description, filePath } = entry;
  return { id, createdAt, tool, description, filePath };
}
