import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Disposable } from '@vmark/sdk';
import { ArgumentError, DomainError, toDisposable } from '@vmark/sdk';
import type { HostDocumentStore } from '../../documents/document-store.js';
import { errorCode } from '@vmark/sdk';
import { fingerprint } from '../../vault/file-fingerprint.js';
import type { HostWorkbench } from '../../workbench/workbench.js';
import type { RecoveryMessage, RecoveryRequests, UiRecoveredEdit } from '../../protocol/recovery-protocol.js';
import type { RecoveryCopies, RecoveryCopy } from './recovery-copies.js';

/** What `keepUnsavedEdits` did with each dirty buffer. */
export interface KeptEdits {
  readonly kept: readonly RecoveryCopy[];
  /** Buffers whose copy could not be written, with why: their edits are lost, and the person is told. */
  readonly failed: readonly { readonly filePath: string | null; readonly reason: string }[];
}

/**
 * Unsaved edits across a stop of the editor host (ADR 34). When the host stops, every dirty buffer
 * is kept in `$VMARK_HOME/recovery/`; the next editor host offers each back in every window,
 * where a person restores it (a tab with unsaved changes holding the kept text, the file on disk
 * untouched until they save) or discards it.
 */
export class UiRecovery implements Disposable {
  readonly #sinks = new Set<(message: RecoveryMessage) => void>();

  constructor(
    private readonly copies: RecoveryCopies,
    private readonly workbench: HostWorkbench,
    private readonly documents: HostDocumentStore,
  ) {}

  attach(sink: (message: RecoveryMessage) => void): Disposable {
    this.#sinks.add(sink);
    return toDisposable(() => this.#sinks.delete(sink));
  }

  /** The kept edits waiting, oldest first, each with how its file stands now. */
  async list(): Promise<UiRecoveredEdit[]> {
    return Promise.all((await this.copies.list()).map(offered));
  }

  /**
   * Reopens kept edits in `windowLabel`: the file's tab (opened if need be) takes the kept text as
   * unsaved changes; an untitled document, or one whose file is gone, comes back as an untitled tab.
   * @throws ArgumentError when no such edits wait; DomainError BUSY when the file is open with
   *   unsaved changes of its own (nothing is replaced), and the refusals of opening the file.
   */
  async restore(id: string, windowLabel: string): Promise<{ tabId: string }> {
    const claimed = await this.copies.claim(id);
    if (claimed === null)
      throw new ArgumentError(`no kept edits ${id}: they were restored or discarded already`);
    let tabId: string;
    try {
      tabId = await this.#reopen(claimed.copy, windowLabel);
    } catch (error) {
      await claimed.putBack();
      throw error;
    }
    await claimed.done();
    await this.#changed();
    return { tabId };
  }

  async discard(id: string): Promise<void> {
    if (!(await this.copies.discard(id)))
      throw new ArgumentError(`no kept edits ${id}: they were restored or discarded already`);
    await this.#changed();
  }

  /** Keeps a copy of every buffer with unsaved changes; the host is about to stop. */
  async keepUnsavedEdits(now: Date = new Date()): Promise<KeptEdits> {
    const kept: RecoveryCopy[] = [];
    const failed: { filePath: string | null; reason: string }[] = [];
    for (const window of this.workbench.state()) {
      for (const tab of window.tabs) {
        if (!tab.dirty) continue;
        const document = this.documents.get(this.workbench.resolveTab(tab.id).documentId);
        try {
          kept.push(
            await this.copies.keep({
              filePath: document.filePath,
              kind: document.kind,
              content: document.content,
              keptAt: now.toISOString(),
              // Unknown when unreadable: the offer then says the file changed, which errs on the safe side.
              diskSha256: await diskSha256(document.filePath).catch(() => null),
              conflict: document.conflict !== undefined,
            }),
          );
        } catch (error) {
          failed.push({
            filePath: document.filePath,
            reason: error instanceof Error ? error.message : String(error),
          });
        }
      }
    }
    return { kept, failed };
  }

  dispose(): void {
    this.#sinks.clear();
  }

  async #reopen(copy: RecoveryCopy, windowLabel: string): Promise<string> {
    if (copy.filePath !== null && (await stat(copy.filePath).catch(() => null))?.isFile() === true) {
      // The person chose these edits: their file opens even outside the workspace, as from the CLI.
      const { tabId } = await this.workbench.openFile(copy.filePath, { windowLabel, consented: true });
      const { documentId } = this.workbench.resolveTab(tabId);
      const open = this.documents.get(documentId);
      if (open.dirty && open.content !== copy.content) {
        throw new DomainError(
          'BUSY',
          `${JSON.stringify(copy.filePath)} is open with unsaved changes of its own: save or close ` +
            'them first, then restore the kept edits',
        );
      }
      await this.documents.replace(documentId, copy.content, {
        origin: { kind: 'editor' },
        expectedRevision: open.revision,
      });
      this.workbench.switchTab(tabId);
      return tabId;
    }
    // The text comes back to be saved wherever the person likes.
    const { tabId } = this.workbench.newTab({ kind: copy.kind, windowLabel });
    const { documentId } = this.workbench.resolveTab(tabId);
    await this.documents.replace(documentId, copy.content, { origin: { kind: 'editor' } });
    this.workbench.switchTab(tabId);
    return tabId;
  }

  async #changed(): Promise<void> {
    const message: RecoveryMessage = { type: 'recovery.changed', edits: await this.list() };
    for (const sink of [...this.#sinks]) sink(message);
  }
}

async function offered(copy: RecoveryCopy): Promise<UiRecoveredEdit> {
  const base = {
    id: copy.id,
    filePath: copy.filePath,
    title: copy.filePath === null ? 'Untitled' : path.basename(copy.filePath),
    keptAt: copy.keptAt,
  };
  if (copy.filePath === null) return { ...base, disk: 'untitled' };
  const now = await diskSha256(copy.filePath).catch(() => null);
  if (now === null) return { ...base, disk: 'missing' };
  return { ...base, disk: !copy.conflict && now === copy.diskSha256 ? 'same' : 'changed' };
}

/** SHA-256 of the file's bytes; null when there is no file. */
async function diskSha256(filePath: string | null): Promise<string | null> {
  if (filePath === null) return null;
  try {
    return fingerprint(await readFile(filePath));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

type RecoveryHandlers = {
  [M in keyof RecoveryRequests]: (
    params: RecoveryRequests[M]['params'],
  ) => Promise<RecoveryRequests[M]['result']>;
};

/** A page's requests about kept edits; a restore opens in that page's window. */
export function recoveryHandlers(recovery: UiRecovery, windowLabel: string): RecoveryHandlers {
  return {
    'recovery.list': async () => ({ edits: await recovery.list() }),
    'recovery.restore': ({ id }) => recovery.restore(id, windowLabel),
    'recovery.discard': async ({ id }) => {
      await recovery.discard(id);
      return {};
    },
  };
}
