/**
 * A delegated resolution (`coherence_resolve`, vmark-notes §7.7), decided as a pure function of
 * the ledger, the person's record of their grants (ADR 23), the calling client's principal and
 * the time. Authorization fails closed and is
 * checked before anything about the edge is revealed. Every refusal is the original's plain
 * string; the caller appends the returned entry and nothing else.
 */
import { ArgumentError } from '@vmark/sdk';
import { createEntry, type EntryFactory, type KnownEntry, type LedgerEntry } from '../kernel/ledger/index.js';
import {
  breakdown,
  buildRevisionGraph,
  normUuid,
  projectEdges,
  resolveObject,
  type ResolvedContext,
} from '../kernel/projection/index.js';
import { authorizingGrant } from '../delegation/authority.js';
import type { GrantRecordRead } from '../delegation/grant-record.js';

export const RESOLUTIONS = ['accept-newer', 'waive'] as const;
export type ResolutionKind = (typeof RESOLUTIONS)[number];

export interface ResolveRequest {
  readonly txf: string;
  readonly input: number;
  readonly resolution: ResolutionKind;
  readonly reason?: string;
}

export interface ResolveReceipt {
  readonly entry_id: string;
  readonly kind: 'ratification' | 'waiver';
  readonly resolved_against: string;
}

export type ResolutionEntry = KnownEntry<'ratification'> | KnownEntry<'waiver'>;

export const ANONYMOUS_REFUSAL =
  'coherence_resolve needs an installed client: this connection presented no VMark client credential ' +
  '(VMARK_MCP_TOKEN). A person runs `vmark mcp install --client NAME`, then grants it a delegation ' +
  'with `vmark coherence delegate`. Ask them; do not retry.';

export function planResolution(
  entries: readonly LedgerEntry[],
  context: ResolvedContext,
  principal: string | null,
  request: ResolveRequest,
  factory: EntryFactory,
  record: GrantRecordRead,
): ResolutionEntry {
  if (principal === null) throw new ArgumentError(ANONYMOUS_REFUSAL);
  const now = factory.now();
  const scope = request.resolution === 'accept-newer' ? 'resolve.accept-newer' : 'resolve.waive';
  const grant = authorizingGrant({ entries, record, writer: factory.writer, principal, scope, now });

  const txf = normUuid(request.txf);
  const rows = projectEdges(entries, context, now);
  const row = rows.find((r) => r.txf === txf && r.input === request.input);
  if (row === undefined) throw new ArgumentError(`no such edge: ${request.txf}#${request.input}`);
  if (!breakdown([row]).includes(row))
    throw new ArgumentError('edge is not live (historical, fresh, or suppressed)');
  if (row.state === 'diverged-multi-head')
    throw new ArgumentError(
      'upstream has multiple live heads — no single revision to resolve against (spec §9.2); revise or pin a head first',
    );

  const upstream = resolveObject(buildRevisionGraph(entries), context, row.upstream);
  if (!('single' in upstream)) throw new ArgumentError('upstream object is not resolvable in this context');
  const reason = request.reason?.trim() ? request.reason : null;
  const body = {
    edge: { txf: row.txf, input: row.input },
    upstream_object: row.upstream,
    pinned: row.pinned,
    resolved_against: upstream.single,
    actor: { type: 'agent' as const, id: principal },
    expires: null,
    delegation: grant.grant,
  };
  if (request.resolution === 'accept-newer') return createEntry('ratification', { ...body, reason }, factory);
  if (reason === null) throw new ArgumentError('a waiver requires a reason (spec §5.4.3)');
  return createEntry('waiver', { ...body, reason }, factory);
}

export function receiptOf(entry: ResolutionEntry): ResolveReceipt {
  return { entry_id: entry.id, kind: entry.kind, resolved_against: entry.body.resolved_against };
}
