/**
 * One scan: walk the workspace, read the ledger, plan, append. A scan only records what it
 * observes in a workspace that already captures: it never creates `.vmark/` (only a capture
 * initializes, vmark-notes §7.1), and a plan with no entries writes nothing at all. Where the
 * workspace is a git repository, what git did since the last scan decides how changed files
 * are recorded (git-classifier.ts); HEAD as the last scan saw it is the latest `navigation`.
 */
import { lstat } from 'node:fs/promises';
import {
  appendEntry,
  isKind,
  readLedger,
  type EntryFactory,
  type LedgerEntry,
  type LedgerRead,
} from '../ledger/index.js';
import { classifyGitState, type GitClassification } from './git-classifier.js';
import { readGitState } from './git-state.js';
import { buildObjectIndex, type ObjectIndex } from './object-index.js';
import { planReconciliation, type ReconciliationPlan } from './reconcile.js';
import { walkWorkspace, type ScanDiagnostic, type WalkOptions, type WalkResult } from './walk-workspace.js';
import { errorCode } from '@vmark/sdk';

export interface ScanOptions extends Pick<EntryFactory, 'now' | 'newId'> {
  readonly walk?: WalkOptions;
  /** Paths observed since the ledger was written (applied moves), by object id. */
  readonly observedPaths?: ReadonlyMap<string, string>;
  /**
   * HEAD as this process last saw it (`ScanResult.head` of its previous scan). Fresher than the
   * ledger's latest `navigation` (commits and merges record none), so it is preferred to it.
   */
  readonly lastHead?: string | null;
  /** The ledger as the caller already holds it (e.g. from a `LedgerTail`); read here otherwise. */
  readonly ledger?: LedgerRead;
  /** Its object index, when the caller keeps one for this very ledger and these paths. */
  readonly known?: ObjectIndex;
  /** A walk the caller knows is still current (nothing changed since); walked here otherwise. */
  readonly walked?: WalkResult;
  /** The idems `ledger` holds, when the caller keeps them for this very ledger. */
  readonly recorded?: ReadonlySet<string>;
  /** Plan for these objects only (`PlanOptions.only`). */
  readonly only?: ReadonlySet<string>;
  /** Called as each observation is appended to the ledger. */
  readonly onAppended?: (done: number, total: number) => void;
}

export interface ScanResult extends ReconciliationPlan {
  /** The plan's entries the ledger did not hold yet (by idem): those appended, or held back. */
  readonly entries: LedgerEntry[];
  /** Entries of the plan actually appended (all of them, or none when the scan held back). */
  readonly appended: number;
  /** What git did since the last scan; null when the workspace root has no `.git`. */
  readonly git: GitClassification | null;
  /** HEAD now (null without git or on an unborn branch): the next scan's `lastHead`. */
  readonly head: string | null;
}

/** The `to` of the latest navigation (entries come in ledger order). */
function lastNavigatedHead(entries: readonly LedgerEntry[]): string | null {
  const latest = entries.findLast((e) => isKind(e, 'navigation'));
  return latest !== undefined && isKind(latest, 'navigation') ? latest.body.git.to : null;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

export async function scanWorkspace(
  root: string,
  vmarkDir: string,
  writerId: string,
  options: ScanOptions,
): Promise<ScanResult> {
  const walked = options.walked ?? (await walkWorkspace(root, options.walk));
  // Quarantine writing stays off: a scan that finds nothing to record must leave every byte
  // of `.vmark/` as it was.
  const ledger = options.ledger ?? (await readLedger(vmarkDir));
  const known = options.known ?? buildObjectIndex(ledger.entries, { observedPaths: options.observedPaths });
  const gitState = await readGitState(root);
  const git =
    gitState === null
      ? null
      : classifyGitState(gitState, options.lastHead ?? lastNavigatedHead(ledger.entries) ?? null);
  const plan = planReconciliation(walked.files, known, {
    writer: writerId,
    newId: options.newId,
    now: options.now,
    coverage: walked,
    git: git ?? undefined,
    ...(options.only === undefined ? {} : { only: options.only }),
  });
  const diagnostics: ScanDiagnostic[] = [...walked.diagnostics, ...plan.diagnostics];
  // A fact recorded before (by this scan's twin, another writer, a capture) is not appended again.
  const recorded = options.recorded ?? new Set(ledger.entries.map((e) => e.idem));
  const fresh = plan.entries.filter((e) => !recorded.has(e.idem));
  const result = (appended: number): ScanResult => ({
    ...plan,
    entries: fresh,
    diagnostics,
    appended,
    git,
    head: gitState?.head ?? null,
  });
  if (fresh.length === 0) return result(0);

  if (ledger.futureFormat > 0) {
    // Lines of a later format may record revisions of these very objects; a parent chosen
    // without them could be wrong, and a wrong revision cannot be taken back.
    diagnostics.push({
      code: 'ledger-incomplete',
      message: `${ledger.futureFormat} ledger line(s) of a later format; ${fresh.length} observation(s) not recorded`,
    });
    return result(0);
  }
  if (!(await isDirectory(vmarkDir))) {
    diagnostics.push({
      code: 'not-initialized',
      message: `no ${vmarkDir}; ${fresh.length} observation(s) not recorded until a capture initializes it`,
    });
    return result(0);
  }
  // In plan order, one at a time: a registration must land before its object's first revision.
  // A failure part-way leaves a prefix that the next scan completes (see reconcile.ts).
  for (const [i, entry] of fresh.entries()) {
    await appendEntry(vmarkDir, writerId, entry);
    options.onAppended?.(i + 1, fresh.length);
  }
  return result(fresh.length);
}
