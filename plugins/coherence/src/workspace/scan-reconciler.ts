import type { LedgerTailRead } from '../kernel/ledger/index.js';
import {
  digestOf,
  readGitState,
  scanWorkspace,
  type ObjectIndex,
  type WalkResult,
  type WorkspaceFile,
} from '../kernel/scan/index.js';
import type { LedgerState } from './caches/ledger-state.js';
import type { WorkspaceFiles } from './caches/workspace-files.js';
import type { IndexProgress } from './index-progress.js';
import type { WorkspaceLedger } from './workspace-ledger.js';

/**
 * Scan reconciliation (vmark-notes §7.6): brings the ledger in line with the files, and keeps
 * what the scan learns that is not a ledger entry (moves seen, HEAD) for the next scan.
 */
export class ScanReconciler {
  /** Moves the scan has seen (index updates, never ledger entries), by object id. */
  readonly #observedPaths = new Map<string, string>();
  /** HEAD as the last scan or capture saw it: how the next scan tells a checkout from an edit. */
  #lastHead: string | null = null;
  /** The walk, ledger version and HEAD the last scan left reconciled. */
  #reconciled: { walk: WalkResult; key: string } | undefined;
  /** The git state (JSON) the last reconciliation looked at. */
  #git = 'null';
  /**
   * What the last scan planned from, when everything it planned is in the ledger: the next
   * scan then plans only for the objects whose files or ledger record changed since (ADR 59).
   */
  #planned: { walk: WalkResult; known: ObjectIndex; key: string } | undefined;

  constructor(
    private readonly ledger: WorkspaceLedger,
    private readonly files: WorkspaceFiles,
    private readonly derived: LedgerState,
  ) {}

  /** Reconciles, which may append; skipped when neither files, ledger nor HEAD moved. */
  async reconcile(indexing: IndexProgress): Promise<LedgerTailRead> {
    const { root, vmarkDir, writer } = this.ledger;
    const walked = await this.files.walk(indexing);
    let ledger = await this.ledger.read(indexing.ledgerRead);
    const git = await readGitState(root);
    this.#git = JSON.stringify(git);
    const head = git?.head ?? null;
    if (this.#reconciled?.walk === walked && this.#reconciled.key === `${ledger.version}:${head}`)
      return ledger;
    const known = this.objectIndex(ledger);
    const key = `${this.#git}:${this.#lastHead}`;
    const only = this.#changedSince(walked, known, key);
    this.#planned = undefined;
    const scan = await scanWorkspace(root, vmarkDir, writer, {
      ...this.ledger.factory,
      ledger,
      known,
      recorded: this.derived.idems(ledger),
      ...(only === undefined ? {} : { only }),
      walked,
      observedPaths: this.#observedPaths,
      lastHead: this.#lastHead,
      onAppended: indexing.recorded,
    });
    for (const move of scan.moves) this.#observedPaths.set(move.object, move.to);
    // A move is remembered only while a walk still sees the object there, alone: once it is
    // gone (or hidden, or duplicated) a new process, which knows only the ledger's path, could
    // not know where it went, and both must answer alike.
    for (const object of [...scan.absent.map((a) => a.object), ...scan.unverified, ...scan.held])
      this.#observedPaths.delete(object);
    this.#lastHead = scan.head;
    // Held back (a later format, no `.vmark/` yet): the next scan plans everything again.
    if (scan.appended === scan.entries.length) this.#planned = { walk: walked, known, key };
    if (scan.appended > 0) ledger = await this.ledger.read();
    this.#reconciled = { walk: walked, key: `${ledger.version}:${scan.head}` };
    return ledger;
  }

  /**
   * The objects a plan from `walk` and `known` may differ on from the last one recorded in
   * full; undefined when that cannot be told (no such plan, git moved, the walk saw less or
   * more of the tree).
   */
  #changedSince(walk: WalkResult, known: ObjectIndex, key: string): Set<string> | undefined {
    const planned = this.#planned;
    if (planned === undefined || planned.key !== key || coverage(planned.walk) !== coverage(walk))
      return undefined;
    const objects = new Set<string>();
    // The object index keeps each unchanged object's record as the same value.
    for (const [object, record] of known) if (planned.known.get(object) !== record) objects.add(object);
    for (const object of planned.known.keys()) if (!known.has(object)) objects.add(object);
    if (planned.walk !== walk) changedCarriers(planned.walk.files, walk.files, objects);
    return objects;
  }

  /** Which file each object is, by the ledger and the moves seen so far. */
  objectIndex(ledger: LedgerTailRead): ObjectIndex {
    return this.derived.objectIndex(ledger, this.#observedPaths);
  }

  /** What the scan remembers besides the ledger, for the on-disk index. */
  memory(): { git: string; lastHead: string | null; observedPaths: [string, string][] } {
    return { git: this.#git, lastHead: this.#lastHead, observedPaths: [...this.#observedPaths] };
  }

  /** Takes over the memory of the process that wrote a sound index of this very ledger. */
  restore(memory: {
    readonly lastHead: string | null;
    readonly observedPaths: readonly (readonly [string, string])[];
  }): void {
    this.#lastHead = memory.lastHead;
    this.#observedPaths.clear();
    for (const [object, path] of memory.observedPaths) this.#observedPaths.set(object, path);
  }

  /** After a capture: the first one tells the next scan where HEAD stood. */
  async captured(): Promise<void> {
    this.#lastHead ??= (await readGitState(this.ledger.root))?.head ?? null;
  }
}

/** What a plan takes from a walk besides the files: what it could not see. */
const coverage = (walk: WalkResult): string =>
  JSON.stringify([walk.complete, walk.skipped, walk.skippedDirs]);

/** Adds to `objects` the ids carried, before or after, by the files that differ (both sorted by path). */
function changedCarriers(
  before: readonly WorkspaceFile[],
  after: readonly WorkspaceFile[],
  objects: Set<string>,
): void {
  const add = (file: WorkspaceFile | undefined): void => {
    const id = file === undefined ? undefined : digestOf(file)?.id;
    if (id !== undefined) objects.add(id);
  };
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    const a = before[i];
    const b = after[j];
    if (b === undefined || (a !== undefined && a.path < b.path)) {
      add(a);
      i++;
    } else if (a === undefined || b.path < a.path) {
      add(b);
      j++;
    } else {
      if (a !== b && !sameDigest(a, b)) {
        add(a);
        add(b);
      }
      i++;
      j++;
    }
  }
}

function sameDigest(a: WorkspaceFile, b: WorkspaceFile): boolean {
  const x = digestOf(a);
  const y = digestOf(b);
  if (x === null || y === null) return x === y;
  return x.id === y.id && x.schema === y.schema && x.contentHash === y.contentHash;
}
