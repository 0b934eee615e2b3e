import type {
  ApprovalOutcome,
  ApprovalRequest,
  Approvals,
  ApproverKind,
  Disposable,
  ToolCall,
} from '@vmark/sdk';
import { DomainError, isDomainError, toDisposable } from '@vmark/sdk';
import { inject, injectable, optional } from 'inversify';
import type { ApprovalDecision, ApprovalDesk, ApprovalEntry, ApprovalStatus } from './approval-entry.js';
import { ApprovalNotFoundError } from './approval-entry.js';
import { newApprovalId } from './approval-id.js';
import { approvalQuestion } from './approval-message.js';
import type { Approver } from './approver.js';
import { type Clock, ClockToken, systemClock } from './clock.js';

/** Requests waiting for a person at once; past it a request is refused, so a loop cannot flood the list. */
export const MAX_WAITING = 16;
/** How long a request waits for a person, from when it was first made. */
export const WAITING_TTL_MS = 10 * 60_000;
/** How long a person's "allow" stays usable: the AI is expected to retry soon. */
export const ALLOWED_TTL_MS = 5 * 60_000;
/** How long a person's "deny" keeps refusing the same request. */
export const DENIED_TTL_MS = 30 * 60_000;

interface Pending {
  readonly id: string;
  readonly key: string;
  readonly request: ApprovalRequest;
  readonly clientName: string;
  readonly createdAt: number;
  status: ApprovalStatus;
  expiresAt: number;
  decidedBy?: ApproverKind;
  decidedAt?: number;
}

/** A person's answer during the call, or `null` when nobody could be asked. */
type Answer = { readonly by: ApproverKind; readonly decision: ApprovalDecision } | null;

/**
 * Asks a person before the host does something a person must allow (DESIGN §5),
 * in order: the UI approvers, the calling client through elicitation, and else
 * the terminal, by keeping the request waiting for `vmark approvals allow|deny`.
 *
 * Requests are matched by (operation, subject, origin): the AI retries the same
 * call and finds the answer given meanwhile. Everything is in memory, bounded,
 * and expires. Any unexpected failure is a refusal, never a permission.
 *
 * Standing grants ("Allow on this site" in the UI dialog) are kept in memory
 * per (operation, origin), only for `grantable` requests with an origin; every
 * other allowance is used up by one call.
 */
@injectable()
export class ApprovalBroker implements Approvals, ApprovalDesk {
  /** One entry per (operation, subject, origin): a retry never queues a duplicate. */
  readonly #entries = new Map<string, Pending>();
  readonly #approvers: Approver[] = [];
  /** (operation, origin) pairs a person allowed for good, until the host stops. */
  readonly #grants = new Set<string>();
  readonly #clock: Clock;

  constructor(@inject(ClockToken) @optional() clock?: Clock) {
    this.#clock = clock ?? systemClock;
  }

  /** Adds an approver asked before elicitation (the desktop UI); dispose it when it can no longer ask. */
  registerApprover(approver: Approver): Disposable {
    this.#approvers.push(approver);
    return toDisposable(() => {
      const index = this.#approvers.indexOf(approver);
      if (index >= 0) this.#approvers.splice(index, 1);
    });
  }

  async request(request: ApprovalRequest, call: ToolCall): Promise<ApprovalOutcome> {
    // Whose turn it was, so that a refusal caused by a failure still names a stage.
    let turn: ApproverKind = 'terminal';
    let requestId: string | undefined;
    try {
      const asked = snapshot(request);
      const key = keyOf(asked);
      this.#expire();
      const known = this.#entries.get(key);
      if (known && known.status !== 'waiting') return this.#settle(known);
      // A person's "Allow on this site" (a deny of this exact request, above, still wins).
      if (asked.grantable && asked.origin !== undefined && this.#grants.has(grantKeyOf(asked))) {
        return { decision: 'allowed', requestId: known?.id ?? this.#newId(), by: 'ui' };
      }
      requestId = known?.id ?? this.#newId();

      const answer = await this.#ask(asked, requestId, call, (kind) => (turn = kind));
      turn = 'terminal';
      // The terminal may have answered while the call was asking someone else.
      this.#expire();
      const current = this.#entries.get(key);
      if (current?.status === 'denied') return this.#settle(current);
      if (answer !== null) {
        // This call answered the waiting request (and used any allowance given meanwhile).
        if (current) this.#entries.delete(key);
        const id = current?.id ?? requestId;
        return answer.decision === 'allow'
          ? { decision: 'allowed', requestId: id, by: answer.by }
          : { decision: 'denied', requestId: id, by: answer.by };
      }
      if (current?.status === 'allowed') return this.#settle(current);
      if (current) return { decision: 'pending', requestId: current.id };
      return this.#enqueue(key, requestId, asked, call);
    } catch (error) {
      if (isDomainError(error) && error.code === 'RESOURCE_EXHAUSTED') throw error;
      return { decision: 'denied', requestId: requestId ?? newApprovalId(), by: turn };
    }
  }

  /** Every entry still held, oldest first. */
  list(): ApprovalEntry[] {
    this.#expire();
    return [...this.#entries.values()].sort((a, b) => a.createdAt - b.createdAt).map(publicEntry);
  }

  /**
   * A person's answer to a held request (`vmark approvals allow|deny`, or the UI
   * answering from its list). The next identical request finds it.
   * @throws ApprovalNotFoundError for an id that was used, has expired, or never existed.
   */
  decide(id: string, decision: ApprovalDecision, by: ApproverKind = 'terminal'): ApprovalEntry {
    this.#expire();
    const entry = [...this.#entries.values()].find((candidate) => candidate.id === id);
    if (!entry) throw new ApprovalNotFoundError(id);
    const now = this.#clock.now();
    entry.status = decision === 'allow' ? 'allowed' : 'denied';
    entry.decidedBy = by;
    entry.decidedAt = now;
    entry.expiresAt = now + (decision === 'allow' ? ALLOWED_TTL_MS : DENIED_TTL_MS);
    return publicEntry(entry);
  }

  async #ask(
    request: ApprovalRequest,
    requestId: string,
    call: ToolCall,
    onTurn: (kind: ApproverKind) => void,
  ): Promise<Answer> {
    for (const approver of [...this.#approvers]) {
      onTurn(approver.kind);
      let reply: unknown;
      try {
        reply = await approver.ask(request, requestId, call.signal);
      } catch {
        continue; // That window could not ask after all: try the next way to reach a person.
      }
      if (reply === 'allow-site' && request.grantable && request.origin !== undefined) {
        this.#grants.add(grantKeyOf(request));
        return { by: approver.kind, decision: 'allow' };
      }
      // Anything but an explicit "allow" (or a standing grant where one may be given) is a refusal.
      return { by: approver.kind, decision: reply === 'allow' ? 'allow' : 'deny' };
    }
    const elicit = call.elicit;
    if (elicit === undefined) return null;
    onTurn('elicitation');
    let reply: unknown;
    try {
      reply = await elicit(approvalQuestion(request));
    } catch {
      // The client declared elicitation but could not ask (no UI, timeout, aborted): leave it to the terminal.
      return null;
    }
    // A decline or cancel is not remembered: the person was asked and may be asked again.
    return { by: 'elicitation', decision: reply === 'accept' ? 'allow' : 'deny' };
  }

  #enqueue(key: string, id: string, request: ApprovalRequest, call: ToolCall): ApprovalOutcome {
    const waiting = [...this.#entries.values()].filter((entry) => entry.status === 'waiting').length;
    if (waiting >= MAX_WAITING) {
      throw new DomainError(
        'RESOURCE_EXHAUSTED',
        `Too many approval requests are waiting for a person; at most ${MAX_WAITING} may wait. ` +
          'Ask the user to answer them (vmark approvals list) or wait for them to expire before trying again.',
      );
    }
    const now = this.#clock.now();
    this.#entries.set(key, {
      id,
      key,
      request,
      clientName: String(call.caller.clientName),
      createdAt: now,
      status: 'waiting',
      expiresAt: now + WAITING_TTL_MS,
    });
    return { decision: 'pending', requestId: id };
  }

  /** The outcome of an entry a person decided; an allowance is used up by the call that finds it. */
  #settle(entry: Pending): ApprovalOutcome {
    const by = entry.decidedBy ?? 'terminal';
    if (entry.status === 'allowed') {
      this.#entries.delete(entry.key);
      return { decision: 'allowed', requestId: entry.id, by };
    }
    return { decision: 'denied', requestId: entry.id, by };
  }

  #expire(): void {
    const now = this.#clock.now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }

  #newId(): string {
    const taken = new Set([...this.#entries.values()].map((entry) => entry.id));
    let id = newApprovalId();
    while (taken.has(id)) id = newApprovalId();
    return id;
  }
}

/**
 * A frozen copy checked for shape: a plugin's object may change after the call,
 * and a malformed one must be refused (by the caller's catch) rather than matched loosely.
 */
function snapshot(request: ApprovalRequest): ApprovalRequest {
  const { operation, subject, origin, grantable } = request;
  if (typeof operation !== 'string' || operation === '' || typeof subject !== 'string') {
    throw new TypeError('An approval request needs an operation and a subject');
  }
  if (origin !== undefined && typeof origin !== 'string') throw new TypeError('origin must be a string');
  return Object.freeze({
    operation,
    subject,
    ...(origin === undefined ? {} : { origin }),
    grantable: grantable === true,
  });
}

function keyOf(request: ApprovalRequest): string {
  return JSON.stringify([request.operation, request.subject, request.origin ?? null]);
}

function grantKeyOf(request: ApprovalRequest): string {
  return JSON.stringify([request.operation, request.origin ?? null]);
}

function publicEntry(entry: Pending): ApprovalEntry {
  const { request } = entry;
  return {
    id: entry.id,
    operation: request.operation,
    subject: request.subject,
    ...(request.origin === undefined ? {} : { origin: request.origin }),
    status: entry.status,
    createdAt: new Date(entry.createdAt).toISOString(),
    expiresAt: new Date(entry.expiresAt).toISOString(),
    clientName: entry.clientName,
    ...(entry.decidedBy === undefined ? {} : { decidedBy: entry.decidedBy }),
    ...(entry.decidedAt === undefined ? {} : { decidedAt: new Date(entry.decidedAt).toISOString() }),
  };
}
