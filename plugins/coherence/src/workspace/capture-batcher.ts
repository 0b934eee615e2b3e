/** Recording the host's writes in the ledger, batched so that captures keep up with writes. */
import { isKind, type LedgerEntry } from '../kernel/ledger/index.js';
import { digestOf, type WalkResult } from '../kernel/scan/index.js';
import { planCapture, planCaptures, type CaptureRequest } from '../capture/plan-capture.js';
import type { WorkspaceFiles } from './caches/workspace-files.js';
import type { ScanReconciler } from './scan-reconciler.js';
import type { WorkspaceLedger } from './workspace-ledger.js';

interface WaitingCapture {
  readonly request: CaptureRequest;
  readonly resolve: (entries: number) => void;
  readonly reject: (error: unknown) => void;
}

/** Runs a task after every workspace operation queued before it. */
export type InTurn = (task: () => Promise<void>) => Promise<void>;

export class CaptureBatcher {
  /** Captures waiting for their turn, recorded together (see `capture`). */
  #waiting: WaitingCapture[] = [];

  constructor(
    private readonly ledger: WorkspaceLedger,
    private readonly files: WorkspaceFiles,
    private readonly scan: ScanReconciler,
    private readonly inTurn: InTurn,
  ) {}

  /**
   * Records one write; initializes `.vmark/` when this is the workspace's first capture.
   * Writes that arrive while a capture runs are recorded together after it (one read of the
   * ledger, one walk), so captures keep up with writes instead of queueing their texts.
   */
  capture(request: CaptureRequest): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.#waiting.push({ request, resolve, reject });
      if (this.#waiting.length === 1) void this.inTurn(() => this.#captureWaiting());
    });
  }

  async #captureWaiting(): Promise<void> {
    const batch = this.#waiting.splice(0);
    let planned: LedgerEntry[][] | undefined;
    try {
      const { entries } = await this.ledger.read();
      planned = planCaptures(
        entries,
        batch.map((c) => c.request),
        this.ledger.factory,
      );
      const walked = await this.files.walk();
      if (planned.some((entries) => duplicated(walked, objectsOf(entries)).length > 0)) planned = undefined;
    } catch {
      planned = undefined;
    }
    if (planned === undefined) {
      // One of them cannot be recorded: each on its own, so that only that one fails.
      for (const { request, resolve, reject } of batch) await this.#captureOne(request).then(resolve, reject);
      return;
    }
    try {
      await this.ledger.append(planned.flat());
      await this.scan.captured();
      batch.forEach(({ resolve }, i) => resolve(planned[i]!.length));
    } catch (error) {
      for (const { reject } of batch) reject(error);
    }
  }

  async #captureOne(request: CaptureRequest): Promise<number> {
    const entries = planCapture((await this.ledger.read()).entries, request, this.ledger.factory);
    const held = duplicated(await this.files.walk(), objectsOf(entries));
    // Which copy is the object is a person's call (vmark-notes §7.2): record nothing until then.
    if (held.length > 0) throw new Error(`capture held: ${held.join(', ')} carried by more than one file`);
    await this.ledger.append(entries);
    await this.scan.captured();
    return entries.length;
  }
}

/** The objects a capture records revisions of or reads. */
function objectsOf(entries: readonly LedgerEntry[]): Set<string> {
  const objects = new Set<string>();
  for (const entry of entries) {
    if (!isKind(entry, 'transformation')) continue;
    for (const out of entry.body.outputs) objects.add(out.object.toLowerCase());
    for (const input of entry.body.inputs) objects.add(input.object.toLowerCase());
  }
  return objects;
}

/** Those of `objects` whose id more than one file carries. */
function duplicated(walked: WalkResult, objects: ReadonlySet<string>): string[] {
  const counts = new Map<string, number>();
  for (const file of walked.files) {
    const id = digestOf(file)?.id;
    if (id !== undefined && objects.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return [...counts].filter(([, n]) => n > 1).map(([id]) => id);
}
