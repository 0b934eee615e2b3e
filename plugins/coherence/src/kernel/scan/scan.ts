/**
 * One scan: walk the workspace, read the ledger, plan, append. A scan only records what it
 * observes in a workspace that already captures: it never creates `.vmark/` (only a capture
 * initializes, vmark-notes §7.1), and a plan with no entries writes nothing at all.
 */
import { lstat } from 'node:fs/promises';
import { appendEntry, readLedger, type EntryFactory } from '../ledger/index.js';
import { buildObjectIndex } from './object-index.js';
import { planReconciliation, type ReconciliationPlan } from './reconcile.js';
import { walkWorkspace, type ScanDiagnostic, type WalkOptions } from './walk-workspace.js';

export interface ScanOptions extends Pick<EntryFactory, 'now' | 'newId'> {
  readonly walk?: WalkOptions;
  /** Paths observed since the ledger was written (applied moves), by object id. */
  readonly observedPaths?: ReadonlyMap<string, string>;
}

export interface ScanResult extends ReconciliationPlan {
  /** Entries of the plan actually appended (all of them, or none when the scan held back). */
  readonly appended: number;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

export async function scanWorkspace(
  root: string,
  vmarkDir: string,
  writerId: string,
  options: ScanOptions,
): Promise<ScanResult> {
  const walked = await walkWorkspace(root, options.walk);
  // Quarantine writing stays off: a scan that finds nothing to record must leave every byte
  // of `.vmark/` as it was.
  const ledger = await readLedger(vmarkDir);
  const known = buildObjectIndex(ledger.entries, { observedPaths: options.observedPaths });
  const plan = planReconciliation(walked.files, known, {
    writer: writerId,
    newId: options.newId,
    now: options.now,
    coverage: walked,
  });
  const diagnostics: ScanDiagnostic[] = [...walked.diagnostics, ...plan.diagnostics];
  const result = (appended: number): ScanResult => ({ ...plan, diagnostics, appended });
  if (plan.entries.length === 0) return result(0);

  if (ledger.futureFormat > 0) {
    // Lines of a later format may record revisions of these very objects; a parent chosen
    // without them could be wrong, and a wrong revision cannot be taken back.
    diagnostics.push({
      code: 'ledger-incomplete',
      message: `${ledger.futureFormat} ledger line(s) of a later format; ${plan.entries.length} observation(s) not recorded`,
    });
    return result(0);
  }
  if (!(await isDirectory(vmarkDir))) {
    diagnostics.push({
      code: 'not-initialized',
      message: `no ${vmarkDir}; ${plan.entries.length} observation(s) not recorded until a capture initializes it`,
    });
    return result(0);
  }
  // In plan order, one at a time: a registration must land before its object's first revision.
  // A failure part-way leaves a prefix that the next scan completes (see reconcile.ts).
  for (const entry of plan.entries) await appendEntry(vmarkDir, writerId, entry);
  return result(plan.entries.length);
}
