import path from 'node:path';
import type { Disposable, DocumentWrittenEvent, FileReplacedEvent, HostHooks } from '@vmark/sdk';
import { inject, injectable } from 'inversify';
import { HostHooksToken } from '../tokens/host-tokens.js';
import { pluginHooks } from '../hooks/plugin-hooks.js';
import { LogHub } from '../log/log-hub.js';
import { errorCode } from '@vmark/sdk';
import { WriteAcks } from '../documents/write-acks.js';
import { HostWorkbench } from '../workbench/workbench.js';
import { CheckpointStore, type NewCheckpoint } from './checkpoint-store.js';
import { describeChange, sizeChange } from './describe-change.js';

/**
 * Records a checkpoint for every change an MCP tool makes to a document, so that
 * AI edits can be undone (`vmark checkpoints restore`). Changes typed in an
 * editor or read from disk are the person's own and are not recorded.
 *
 * The hook is synchronous and runs inside the write: the tap hands the
 * checkpoint to the store, which writes it in order, batched with others (and
 * never holds more text than its retention keeps), while the document's own
 * file is written; the write is acknowledged once both are on disk (`WriteAcks`,
 * ADR 60). A failure to record never fails the write; it is reported (stderr,
 * MCP clients) once per kind.
 */
@injectable()
export class CheckpointRecorder {
  #tap: Disposable | undefined;
  /** The newest checkpoint's append: the store writes in order, so every earlier one is done with it. */
  #last: Promise<void> = Promise.resolve();
  #reported = new Set<string>();

  constructor(
    @inject(HostHooksToken) private readonly hooks: HostHooks,
    @inject(HostWorkbench) private readonly workbench: HostWorkbench,
    @inject(CheckpointStore) private readonly store: CheckpointStore,
    @inject(LogHub) private readonly log: LogHub,
    @inject(WriteAcks) private readonly acks: WriteAcks,
  ) {}

  /** Starts recording; calling it again changes nothing. */
  start(): void {
    if (this.#tap) return;
    const hooks = pluginHooks(this.hooks, 'checkpoints');
    // The text has already changed when a hook runs: throwing there would fail a write that happened.
    const guarded =
      <E>(record: (event: E) => void) =>
      (event: E) => {
        try {
          record(event);
        } catch (error) {
          this.#report(error);
        }
      };
    const taps = [
      hooks.tap(
        'documentWritten',
        guarded((event) => this.#record(event)),
      ),
      hooks.tap(
        'fileReplaced',
        guarded((event) => this.#recordReplaced(event)),
      ),
    ];
    this.#tap = { dispose: () => taps.forEach((tap) => tap.dispose()) };
  }

  /** Resolves once every checkpoint queued so far is on disk (or has failed). */
  flush(): Promise<void> {
    return this.#last;
  }

  /** Stops recording. Checkpoints already queued are still written: `flush` waits for them. */
  dispose(): void {
    this.#tap?.dispose();
    this.#tap = undefined;
  }

  #record({ before, after, origin }: DocumentWrittenEvent): void {
    if (origin.kind !== 'mcp' || before.content === after.content) return;
    const tool = `${origin.tool}.${origin.action}`;
    const checkpoint: NewCheckpoint = {
      tabId: this.workbench.tabOfDocument(after.id)?.id ?? null,
      filePath: after.filePath,
      tool,
      description: origin.description ?? describeChange(tool, before.content, after.content),
      revisionBefore: before.revision,
      revisionAfter: after.revision,
      contentBefore: before.content,
      createdAt: new Date(),
    };
    this.#append(after.id, checkpoint);
  }

  /**
   * A file a save_as replaced (with a person's approval): "the file held this text before", so
   * that `vmark checkpoints restore` puts it back. The document kept its revision.
   */
  #recordReplaced({ document, filePath, replacedContent, origin }: FileReplacedEvent): void {
    const tool = origin.kind === 'mcp' ? `${origin.tool}.${origin.action}` : 'workspace.save_as';
    this.#append(document.id, {
      tabId: this.workbench.tabOfDocument(document.id)?.id ?? null,
      filePath,
      tool,
      description: `Replaced ${path.basename(filePath)} with a save_as (${sizeChange(replacedContent, document.content)})`,
      revisionBefore: document.revision,
      revisionAfter: document.revision,
      contentBefore: replacedContent,
      createdAt: new Date(),
    });
  }

  #append(documentId: string, checkpoint: NewCheckpoint): void {
    let durable!: () => void;
    // The write's answer waits until the checkpoint can be restored, or has failed; not for the prune after.
    this.acks.hold(documentId, new Promise<void>((resolve) => (durable = resolve)));
    this.#last = this.store.append(checkpoint, durable).then(
      () => undefined,
      (error: unknown) => this.#report(error),
    );
    void this.#last.finally(durable);
  }

  /** Once per kind of failure (ENOSPC, EACCES, ...), naming the error but never the document's text. */
  #report(error: unknown): void {
    const kind = errorCode(error) ?? (error instanceof Error ? error.name : typeof error);
    if (this.#reported.has(kind)) return;
    this.#reported.add(kind);
    const reason = error instanceof Error ? error.message : String(error);
    // Host-wide: every client's edits go unrecorded alike, whichever write found it out.
    this.log.log('checkpoints', 'error', `could not record an AI edit checkpoint (${kind}): ${reason}`);
  }
}
