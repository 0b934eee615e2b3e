/**
 * One workspace's coherence state, for the tools and the terminal. Every operation runs in
 * turn (reads see every capture queued before them); the ledger on disk is the only truth,
 * and what is kept in memory here (paths seen to move) is rebuilt by the next scan.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { ReportProgress } from '@vmark/sdk';
import { SerialQueue } from '@vmark/sdk';
import { uuidv7 } from '../kernel/identity/index.js';
import {
  appendEntries,
  createEntry,
  ensureLayout,
  isKind,
  LedgerTail,
  parseTime,
  type EntryFactory,
  type LedgerEntry,
  type LedgerTailRead,
} from '../kernel/ledger/index.js';
import {
  breakdown,
  buildRevisionGraph,
  currentClaims,
  DEFAULT_CONTEXT_ID,
  projectEdges,
  resolveContext,
  selectionFor,
  type CurrentClaimRow,
  type EdgeRow,
  type ResolvedContext,
  type RevisionGraph,
} from '../kernel/projection/index.js';
import {
  buildObjectIndex,
  digestOf,
  readGitState,
  scanWorkspace,
  WalkCache,
  walkWorkspace,
  type ObjectIndex,
  type WalkResult,
} from '../kernel/scan/index.js';
import { planCapture, planCaptures, type CaptureRequest } from '../capture/plan-capture.js';
import { GrantRecordError, type GrantRecord } from '../delegation/grant-record.js';
import { currentGrants, DELEGABLE_SCOPES, type DelegableScope, type Grant } from '../delegation/grants.js';
import {
  planResolution,
  receiptOf,
  type ResolveReceipt,
  type ResolveRequest,
} from '../resolution/resolve-edge.js';
import { ChangeMonitor } from './change-monitor.js';
import { readContextFiles } from './context-files.js';
import { edgeRows, type McpEdgeRow } from './edge-rows.js';
import { IndexProgress } from './index-progress.js';

export const VMARK_DIR = '.vmark';

export interface CoherenceStatus {
  readonly initialized: boolean;
  readonly objects: number;
  readonly open_items: number;
  readonly quarantined: number;
  readonly writer: string;
}

export interface ContextRow {
  readonly id: string;
  readonly name: string;
  readonly parent: string | null;
  readonly enforcement: 'enforcing' | 'greenhouse';
  readonly visibleClaims: number;
  readonly errors: readonly string[];
}

export interface DelegateRequest {
  readonly delegate: string;
  readonly scope: readonly DelegableScope[];
  readonly expires: Date;
  readonly actor: string;
}

/** A grant as `vmark coherence delegations` lists it. */
export interface ListedGrant extends Grant {
  /** Whether this installation's record in `$VMARK_HOME` states it as the ledger does. */
  readonly recorded: boolean;
}

export interface Clock {
  readonly now: () => Date;
  readonly newId: () => string;
}

interface WaitingCapture {
  readonly request: CaptureRequest;
  readonly resolve: (entries: number) => void;
  readonly reject: (error: unknown) => void;
}

const systemClock: Clock = { now: () => new Date(), newId: () => uuidv7() };

/**
 * Derived state kept between calls (the "index" of vmark-notes §7.1, in memory): each piece
 * is keyed on what it was derived from, so a warm call with nothing changed only checks keys.
 */
interface Derived<T> {
  readonly key: string;
  readonly value: T;
}

export class CoherenceWorkspace {
  readonly vmarkDir: string;
  readonly #tail: LedgerTail;
  /** Moves the scan has seen (index updates, never ledger entries), by object id. */
  readonly #observedPaths = new Map<string, string>();
  /** Lets a walk re-read only the files whose stat signature changed since the last one. */
  readonly #walkCache = new WalkCache();
  /** Lets a call skip the walk altogether when nothing in the workspace changed. */
  readonly #monitor: ChangeMonitor;
  #lastWalk: WalkResult | undefined;
  /** HEAD as the last scan or capture saw it: how the next scan tells a checkout from an edit. */
  #lastHead: string | null = null;
  /** The walk, ledger version and HEAD the last scan left reconciled. */
  #reconciled: { walk: WalkResult; key: string } | undefined;
  #graph: Derived<RevisionGraph> | undefined;
  #objects: Derived<ObjectIndex> | undefined;
  #projection: Derived<{ rows: readonly EdgeRow[]; until: number }> | undefined;
  readonly #queue = new SerialQueue();
  /** Captures waiting for their turn, recorded together (see `capture`). */
  #captures: WaitingCapture[] = [];

  constructor(
    readonly root: string,
    readonly writer: string,
    /** The person's record of their grants, in `$VMARK_HOME` (ADR 23). */
    private readonly grants: GrantRecord,
    private readonly clock: Clock = systemClock,
  ) {
    this.vmarkDir = path.join(root, VMARK_DIR);
    this.#tail = new LedgerTail(this.vmarkDir, { writeQuarantine: true });
    this.#monitor = new ChangeMonitor(root, this.vmarkDir);
  }

  dispose(): void {
    this.#monitor.dispose();
  }

  /** Runs `task` after every operation queued before it. */
  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.#queue.run(task);
  }

  get #factory(): EntryFactory {
    return { writer: this.writer, now: this.clock.now, newId: this.clock.newId };
  }

  async initialized(): Promise<boolean> {
    try {
      await access(this.vmarkDir);
      return true;
    } catch {
      return false;
    }
  }

  async #defaultContext(): Promise<ResolvedContext> {
    const files = await readContextFiles(this.vmarkDir);
    const context = resolveContext(DEFAULT_CONTEXT_ID, files.manifests);
    return files.errors.length === 0 ? context : { ...context, errors: [...files.errors, ...context.errors] };
  }

  /** `progress` hears how far the walk and the ledger's reading have come (a first call reads every file). */
  status(progress?: ReportProgress): Promise<CoherenceStatus> {
    return this.#exclusive(async () => {
      const indexing = new IndexProgress(progress);
      const walked = await this.#walk(indexing);
      const ids = new Set(walked.files.flatMap((f) => digestOf(f)?.id ?? []));
      if (!(await this.initialized()))
        return { initialized: false, objects: ids.size, open_items: 0, quarantined: 0, writer: this.writer };
      const ledger = await this.#tail.refresh(indexing.ledgerRead);
      const context = await this.#defaultContext();
      const open = breakdown(this.#project(ledger, context)).filter(
        (r) => selectionFor(context, r.downstream) === 'live',
      );
      return {
        initialized: true,
        objects: ids.size,
        open_items: open.length,
        quarantined: ledger.quarantined,
        writer: this.writer,
      };
    });
  }

  /** Reconciles the files with the ledger (which may append), then lists the breakdown; see `status` for `progress`. */
  edges(progress?: ReportProgress): Promise<McpEdgeRow[]> {
    return this.#exclusive(async () => {
      const ledger = await this.#reconcile(new IndexProgress(progress));
      const context = await this.#defaultContext();
      return edgeRows(this.#project(ledger, context), this.#objectIndex(ledger), context);
    });
  }

  claims(): Promise<readonly CurrentClaimRow[]> {
    return this.#exclusive(async () =>
      currentClaims((await this.#tail.refresh()).entries, await this.#defaultContext()),
    );
  }

  contexts(): Promise<ContextRow[]> {
    return this.#exclusive(async () => {
      const files = await readContextFiles(this.vmarkDir);
      const rows = files.manifests.map((m): ContextRow => {
        const resolved = resolveContext(m.id, files.manifests);
        return {
          id: m.id.toLowerCase(),
          name: m.name,
          parent: m.parent?.toLowerCase() ?? null,
          enforcement: resolved.enforcement,
          visibleClaims: resolved.visibleClaims.length,
          errors: resolved.errors,
        };
      });
      // The implicit default always exists; unreadable files are reported on it.
      if (!rows.some((r) => r.id === DEFAULT_CONTEXT_ID))
        rows.unshift({
          id: DEFAULT_CONTEXT_ID,
          name: 'default',
          parent: null,
          enforcement: 'greenhouse',
          visibleClaims: 0,
          errors: [],
        });
      if (files.errors.length > 0) {
        const i = rows.findIndex((r) => r.id === DEFAULT_CONTEXT_ID);
        const row = rows[i]!;
        rows[i] = { ...row, errors: [...files.errors, ...row.errors] };
      }
      return rows;
    });
  }

  resolve(principal: string | null, request: ResolveRequest): Promise<ResolveReceipt> {
    return this.#exclusive(async () => {
      const ledger = await this.#tail.refresh();
      const entry = planResolution(
        ledger.entries,
        await this.#defaultContext(),
        principal,
        request,
        this.#factory,
        await this.grants.read(this.root),
      );
      await this.#append([entry]);
      return receiptOf(entry);
    });
  }

  /**
   * Records one write; initializes `.vmark/` when this is the workspace's first capture.
   * Writes that arrive while a capture runs are recorded together after it (one read of the
   * ledger, one walk), so captures keep up with writes instead of queueing their texts.
   */
  capture(request: CaptureRequest): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.#captures.push({ request, resolve, reject });
      if (this.#captures.length === 1) void this.#exclusive(() => this.#captureWaiting());
    });
  }

  async #captureWaiting(): Promise<void> {
    const batch = this.#captures.splice(0);
    let planned: LedgerEntry[][] | undefined;
    try {
      const { entries } = await this.#tail.refresh();
      planned = planCaptures(
        entries,
        batch.map((c) => c.request),
        this.#factory,
      );
      const walked = await this.#walk();
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
      await this.#append(planned.flat());
      this.#lastHead ??= (await readGitState(this.root))?.head ?? null;
      batch.forEach(({ resolve }, i) => resolve(planned[i]!.length));
    } catch (error) {
      for (const { reject } of batch) reject(error);
    }
  }

  async #captureOne(request: CaptureRequest): Promise<number> {
    const entries = planCapture((await this.#tail.refresh()).entries, request, this.#factory);
    const held = duplicated(await this.#walk(), objectsOf(entries));
    // Which copy is the object is a person's call (vmark-notes §7.2): record nothing until then.
    if (held.length > 0) throw new Error(`capture held: ${held.join(', ')} carried by more than one file`);
    await this.#append(entries);
    this.#lastHead ??= (await readGitState(this.root))?.head ?? null;
    return entries.length;
  }

  delegations(): Promise<readonly ListedGrant[]> {
    return this.#exclusive(async () => {
      const record = await this.grants.read(this.root);
      const recorded = record.readable ? record.grants : [];
      return currentGrants((await this.#tail.refresh()).entries).map((g) => ({
        ...g,
        recorded: recorded.some((r) => r.grant === g.grant && r.entry === g.entryId),
      }));
    });
  }

  /**
   * A person's grant (`vmark coherence delegate`); the caller checks the person is at a terminal.
   * Written to the ledger, then to the person's record; when the record cannot take it, the
   * ledger entry is revoked again, so that the two never disagree for longer than a crash.
   */
  delegate(request: DelegateRequest): Promise<{ grant: string; entryId: string }> {
    return this.#exclusive(async () => {
      if (request.scope.length === 0) throw new RangeError('a grant needs at least one scope');
      if (request.scope.some((s) => !DELEGABLE_SCOPES.includes(s))) throw new RangeError('unknown scope');
      if (request.delegate.trim() === '') throw new RangeError('a grant needs a delegate');
      if (request.expires.getTime() <= this.clock.now().getTime())
        throw new RangeError('a grant must expire in the future');
      await this.grants.makeRoom(this.root, this.clock.now());
      const grant = this.clock.newId();
      const entry = createEntry(
        'delegation',
        {
          delegation: grant,
          actor: { type: 'human', id: request.actor },
          delegate: { type: 'external', id: request.delegate },
          scope: [...request.scope],
          expires: request.expires.toISOString(),
          supersedes: null,
        },
        this.#factory,
      );
      await this.#append([entry]);
      try {
        await this.grants.add(this.root, {
          grant,
          entry: entry.id,
          delegate: request.delegate,
          scope: [...request.scope],
          expires: entry.body.expires,
        });
      } catch (error) {
        await this.#append([revocationOf(currentGrants([entry])[0]!, request.actor, this.#factory)]);
        const why = error instanceof Error ? error.message : String(error);
        throw new GrantRecordError(
          `the grant could not be recorded in VMARK_HOME (${why}), so it was revoked in the ledger again`,
          { cause: error },
        );
      }
      return { grant, entryId: entry.id };
    });
  }

  /**
   * Revocation, in the person's record first (so it holds even if the ledger append fails), then
   * in the ledger: a superseding entry with an empty scope. Revokes a grant live in either.
   * @returns null when neither knows a live grant of that id; `entryId` null when only the record did.
   */
  revoke(grantId: string, actor: string): Promise<{ grant: string; entryId: string | null } | null> {
    return this.#exclusive(async () => {
      const id = grantId.toLowerCase();
      const current = currentGrants((await this.#tail.refresh()).entries).find((g) => g.grant === id);
      const inRecord = await this.grants.remove(this.root, id);
      const live = current !== undefined && current.scope.length > 0;
      if (!live) return inRecord ? { grant: id, entryId: null } : null;
      const entry = revocationOf(current, actor, this.#factory);
      await this.#append([entry]);
      return { grant: current.grant, entryId: entry.id };
    });
  }

  /** The workspace's Markdown files: the last walk while nothing changed, else a new one. */
  async #walk(indexing = new IndexProgress()): Promise<WalkResult> {
    if (this.#lastWalk !== undefined && (await this.#monitor.unchanged())) return this.#lastWalk;
    // Marked before walking: a change made during the walk is seen by the next call.
    this.#monitor.mark();
    this.#lastWalk = await walkWorkspace(this.root, {
      cache: this.#walkCache,
      onProgress: indexing.filesRead,
    });
    return this.#lastWalk;
  }

  /** Scan reconciliation (vmark-notes §7.6), skipped when neither files, ledger nor HEAD moved. */
  async #reconcile(indexing: IndexProgress): Promise<LedgerTailRead> {
    const walked = await this.#walk(indexing);
    let ledger = await this.#tail.refresh(indexing.ledgerRead);
    const head = (await readGitState(this.root))?.head ?? null;
    if (this.#reconciled?.walk === walked && this.#reconciled.key === `${ledger.version}:${head}`)
      return ledger;
    const scan = await scanWorkspace(this.root, this.vmarkDir, this.writer, {
      ...this.#factory,
      ledger,
      known: this.#objectIndex(ledger),
      walked,
      observedPaths: this.#observedPaths,
      lastHead: this.#lastHead,
      onAppended: indexing.recorded,
    });
    for (const move of scan.moves) this.#observedPaths.set(move.object, move.to);
    this.#lastHead = scan.head;
    if (scan.appended > 0) ledger = await this.#tail.refresh();
    this.#reconciled = { walk: walked, key: `${ledger.version}:${scan.head}` };
    return ledger;
  }

  /** The revision DAG of the ledger, shared by the object index and the projection. */
  #revisionGraph(ledger: LedgerTailRead): RevisionGraph {
    const key = String(ledger.version);
    if (this.#graph?.key !== key) this.#graph = { key, value: buildRevisionGraph(ledger.entries) };
    return this.#graph.value;
  }

  #objectIndex(ledger: LedgerTailRead): ObjectIndex {
    const key = `${ledger.version}:${JSON.stringify([...this.#observedPaths])}`;
    if (this.#objects?.key !== key) {
      const options = { observedPaths: this.#observedPaths, graph: this.#revisionGraph(ledger) };
      this.#objects = { key, value: buildObjectIndex(ledger.entries, options) };
    }
    return this.#objects.value;
  }

  /** Every edge projected in `context`; kept until the ledger, the context or a waiver's expiry changes it. */
  #project(ledger: LedgerTailRead, context: ResolvedContext): readonly EdgeRow[] {
    const now = this.clock.now();
    const key = `${ledger.version}:${contextKey(context)}`;
    if (this.#projection?.key === key && now.getTime() < this.#projection.value.until)
      return this.#projection.value.rows;
    const rows = projectEdges(ledger.entries, context, now, this.#revisionGraph(ledger));
    this.#projection = { key, value: { rows, until: nextExpiry(ledger.entries, now) } };
    return rows;
  }

  async #append(entries: readonly LedgerEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await ensureLayout(this.vmarkDir);
    await appendEntries(this.vmarkDir, this.writer, entries);
  }
}

/** The entry that revokes `grant`: it supersedes the grant's current entry with an empty scope. */
function revocationOf(grant: Grant, actor: string, factory: EntryFactory): LedgerEntry {
  return createEntry(
    'delegation',
    {
      delegation: grant.grant,
      actor: { type: 'human', id: actor },
      delegate: { type: 'external', id: grant.delegate },
      scope: [],
      expires: grant.expires,
      supersedes: grant.entryId,
    },
    factory,
  );
}

function contextKey(context: ResolvedContext): string {
  return JSON.stringify([context.id, [...context.selections], context.visibleClaims, context.enforcement]);
}

/** When the first waiver still in force runs out: a projection made now is right until then. */
function nextExpiry(entries: readonly LedgerEntry[], now: Date): number {
  let next = Infinity;
  for (const entry of entries) {
    if (!isKind(entry, 'waiver') || entry.body.expires == null) continue;
    const at = parseTime(entry.body.expires)?.epochMs;
    if (at !== undefined && at > now.getTime() && at < next) next = at;
  }
  return next;
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
