/** A resolution of an open edge (`coherence_resolve`), planned against the ledger and the person's grants, then recorded. */
import type { GrantRecord } from '../delegation/grant-record.js';
import {
  planResolution,
  receiptOf,
  type ResolveReceipt,
  type ResolveRequest,
} from '../resolution/resolve-edge.js';
import { defaultContext } from './workspace-contexts.js';
import type { WorkspaceLedger } from './workspace-ledger.js';

export async function resolveEdge(
  ledger: WorkspaceLedger,
  grants: GrantRecord,
  principal: string | null,
  request: ResolveRequest,
): Promise<ResolveReceipt> {
  const entry = planResolution(
    (await ledger.read()).entries,
    await defaultContext(ledger.vmarkDir),
    principal,
    request,
    ledger.factory,
    await grants.read(ledger.root),
  );
  await ledger.append([entry]);
  return receiptOf(entry);
}
