import { stat } from 'node:fs/promises';
import { DomainError, type DocumentSnapshot } from '@vmark/sdk';
import type { HostDocumentStore } from '../documents/document-store.js';
import type { HostWorkbench } from '../workbench/workbench.js';
import type { Checkpoint } from './checkpoint-entry.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { sizeChange } from './describe-change.js';

/** What a restore did: `changed: false` when the file already held the checkpoint's text. */
export interface CheckpointRestore {
  readonly restored: string;
  readonly filePath: string;
  readonly revision: string;
  readonly changed: boolean;
}

export interface RestoreContext {
  readonly store: CheckpointStore;
  readonly workbench: HostWorkbench;
  readonly documents: HostDocumentStore;
  /** Whether the restored file's tab outlives the call; the CLI's host ends with the command, so it names none. */
  readonly tabOutlivesCall: boolean;
}

/** A checkpoint that cannot be restored at all: of an untitled document, or of a file that no longer exists. */
export class NotRestorableError extends DomainError {
  constructor(message: string) {
    super('INVALID_PATH', message);
  }
}

/** The file was restored and saved, but its checkpoint could not be written: the restore cannot be undone. */
export class RestoreNotRecordedError extends DomainError {
  constructor(
    readonly restore: CheckpointRestore,
    reason: string,
  ) {
    super(
      'INTERNAL',
      `the file was restored, but the restore could not be recorded (so cannot be undone): ${reason}`,
      { ...restore },
    );
  }
}

/**
 * Puts back the text from before a checkpoint's edit as a new revision, saved
 * through the host, and records the restore as a checkpoint of its own so that
 * it can be undone too. The one restore behind `vmark checkpoints restore` and
 * the History panel. Nothing is restored (and nothing recorded) when:
 *
 * - the checkpoint is of an untitled document, or its file no longer exists (`NotRestorableError`);
 * - the open document has unsaved changes (`STALE`): the restore would save over them,
 *   and the text on disk they replace is in no checkpoint;
 * - the save refuses (the file changed on disk since the host read it, it is read-only):
 *   the buffer gets its text back.
 *
 * The file opens even outside the workspace: a person chose this checkpoint, in the
 * panel or at a terminal.
 *
 * @throws UnknownCheckpointError for an id that is not in the history; the DomainErrors above;
 *   RestoreNotRecordedError when the restore happened but could not be recorded.
 */
export async function restoreCheckpoint(context: RestoreContext, id: string): Promise<CheckpointRestore> {
  const { store, workbench, documents } = context;
  const checkpoint = await restorableCheckpoint(store, id);
  const { filePath } = checkpoint;
  const { tabId } = await workbench.openFile(filePath, { consented: true });
  const { documentId } = workbench.resolveTab(tabId);
  const current = documents.get(documentId);
  if (current.content === checkpoint.contentBefore) {
    return { restored: id, filePath, revision: current.revision, changed: false };
  }
  if (current.dirty) {
    throw new DomainError(
      'STALE',
      `${JSON.stringify(filePath)} has unsaved changes: save or discard them, then restore`,
      { current_revision: current.revision },
    );
  }

  const replaced = await documents.replace(documentId, checkpoint.contentBefore, {
    origin: { kind: 'host' },
    expectedRevision: current.revision,
  });
  let saved: DocumentSnapshot;
  try {
    saved = await documents.save(documentId);
  } catch (error) {
    // Not saved: the buffer gets its text back (unless it changed again meanwhile), so nothing was restored.
    await documents
      .replace(documentId, current.content, { origin: { kind: 'host' }, expectedRevision: replaced.revision })
      .catch(() => undefined);
    throw error;
  }

  const restore: CheckpointRestore = { restored: id, filePath, revision: saved.revision, changed: true };
  try {
    await store.append({
      tabId: context.tabOutlivesCall ? tabId : null,
      filePath,
      tool: 'checkpoints.restore',
      description: `Restored ${id} (${sizeChange(current.content, checkpoint.contentBefore)})`,
      revisionBefore: current.revision,
      revisionAfter: saved.revision,
      contentBefore: current.content,
    });
  } catch (error) {
    throw new RestoreNotRecordedError(restore, error instanceof Error ? error.message : String(error));
  }
  return restore;
}

/**
 * The checkpoint `id`, if it can be restored: checked before anything opens the file.
 * @throws UnknownCheckpointError, NotRestorableError
 */
export async function restorableCheckpoint(
  store: CheckpointStore,
  id: string,
): Promise<Checkpoint & { readonly filePath: string }> {
  const checkpoint = await store.get(id);
  const { filePath } = checkpoint;
  if (filePath === null) {
    throw new NotRestorableError(`Checkpoint ${id} is of an untitled document: there is no file to restore`);
  }
  if ((await stat(filePath).catch(() => null))?.isFile() !== true) {
    throw new NotRestorableError(`${JSON.stringify(filePath)} no longer exists; nothing was restored`);
  }
  return { ...checkpoint, filePath };
}
