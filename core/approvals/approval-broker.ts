import type {
  ApprovalOutcome,
  ApprovalRequest,
  Approvals,
  ApproverKind,
  Disposable,
  ToolCall,
  ToolCaller,
} from '@vmark/sdk';
import {
  APPROVAL_IMAGE_PREFIX,
  DomainError,
  isDomainError,
  MAX_APPROVAL_IMAGE_CHARS,
  toDisposable,
} from '@vmark/sdk';
import { inject, injectable, optional } from 'inversify';
import type { ApprovalDecision, ApprovalDesk, ApprovalEntry, ApprovalStatus } from './approval-entry.js';
import { ApprovalNotFoundError, UntilNavigationNotOfferedError } from './approval-entry.js';
import { newApprovalId, newGrantId } from './approval-id.js';
import { type ApprovalAsker, approvalQuestion, shownRequest } from './approval-message.js';
import type { Approver } from './approver.js';
import { canonicalOrigin } from './canonical-origin.js';
import { type Clock, ClockToken, systemClock } from './clock.js';
import {
  type GrantSelector,
  GrantNotFoundError,
  NEVER_STANDING,
  NotAnOriginError,
  type StandingGrant,
} from './standing-grant.js';

/** Requests waiting for a person at once; past it a request is refused, so a loop cannot flood the list. */
export const MAX_WAITING = 16;
/**
 * Of those, how many one connection may hold: a client looping over many subjects
 * fills its own share, and another client can still be heard (ADR 22).
 */
export const MAX_WAITING_PER_CONNECTION = MAX_WAITING / 2;
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
  /** Copied from the caller, whose object is not ours to keep. */
  readonly asker: ApprovalAsker;
  readonly createdAt: number;
  status: ApprovalStatus;
  expiresAt: number;
  decidedBy?: ApproverKind;
  decidedAt?: number;
  /** Set by an "Allow until navigation" given at the terminal, for a request that offered it. */
  lasts?: 'until-navigation';
}

/** A person's answer during the call, or `null` when nobody could be asked. */
type Answer = { readonly by: ApproverKind; readonly decision: ApprovalDecision } | null;

/** An allowance as the outcome states it: how long it lasts, said only when not once. */
function allowed(requestId: string, by: ApproverKind, decision: ApprovalDecision): ApprovalOutcome {
  return decision === 'allow-until-navigation'
    ? { decision: 'allowed', requestId, by, lasts: 'until-navigation' }
    : { decision: 'allowed', requestId, by };
}

/** A request as the broker keeps it: the origin a grant would be keyed by, when one may be given. */
type Asked = ApprovalRequest & { readonly grantOrigin?: string };

/**
 * Asks a person before the host does something a person must allow (DESIGN §5),
 * in order: the UI approvers, the calling client through elicitation, and else
 * the terminal, by keeping the request waiting for `vmark approvals allow|deny`.
 *
 * Requests are matched by (connection, operation, subject, origin, and what the
 * client wrote and the person was warned of): the AI retries the same call on the
 * same connection and finds the answer given meanwhile. Another connection asking
 * the same is another request, asked and answered on its own, so no client can
 * spend, or be refused by, another's answer (ADR 22). Everything is in memory,
 * bounded, and expires. Any unexpected failure is a refusal, never a permission.
 *
 * Standing grants ("Allow on this site" in the UI dialog or the elicitation form)
 * are kept in memory only, per (connection, operation, canonical origin), for
 * `grantable` requests with an http(s) origin and never for `eval`, `session`,
 * `record` or `upload` (whatever the request says); every other allowance is used
 * up by one call. A person lists and revokes them (`grants`, `revoke`, ADR 40).
 */
@injectable()
export class ApprovalBroker implements Approvals, ApprovalDesk {
  /** One entry per connection and request: a retry never queues a duplicate. */
  readonly #entries = new Map<string, Pending>();
  readonly #approvers: Approver[] = [];
  /** (connection, operation, canonical origin) a person allowed for good, until revoked or the host stops. */
  readonly #grants = new Map<string, StandingGrant>();
  readonly #grantListeners = new Set<() => void>();
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
      const asker = askerOf(call.caller);
      const key = keyOf(asked, asker);
      this.#expire();
      const known = this.#entries.get(key);
      if (known && known.status !== 'waiting') return this.#settle(known);
      // A person's "Allow on this site" (a deny of this exact request, above, still wins).
      const grant = asked.grantOrigin === undefined ? undefined : this.#grants.get(grantKeyOf(asked, asker));
      if (grant) return { decision: 'allowed', requestId: known?.id ?? this.#newId(), by: grant.grantedBy };
      requestId = known?.id ?? this.#newId();

      const answer = await this.#ask(asked, requestId, asker, call, (kind) => (turn = kind));
      turn = 'terminal';
      // The terminal may have answered while the call was asking someone else.
      this.#expire();
      const current = this.#entries.get(key);
      if (current?.status === 'denied') return this.#settle(current);
      if (answer !== null) {
        // This call answered the waiting request (and used any allowance given meanwhile).
        if (current) this.#entries.delete(key);
        const id = current?.id ?? requestId;
        return answer.decision === 'deny'
          ? { decision: 'denied', requestId: id, by: answer.by }
          : allowed(id, answer.by, answer.decision);
      }
      if (current?.status === 'allowed') return this.#settle(current);
      if (current) return { decision: 'pending', requestId: current.id };
      return this.#enqueue(key, requestId, asked, asker);
    } catch (error) {
      if (isDomainError(error) && error.code === 'RESOURCE_EXHAUSTED') throw error;
      return { decision: 'denied', requestId: requestId ?? newApprovalId(), by: turn };
    }
  }

  /**
   * Whether a person's standing grant covers `operation` on `origin` for the asking connection,
   * asking no one (a bare `ref` in the browser is honoured only then). Never for the operations
   * that are never standing; anything malformed answers no.
   */
  hasStandingGrant(grant: { readonly operation: string; readonly origin: string }, call: ToolCall): boolean {
    try {
      if (NEVER_STANDING.has(grant.operation)) return false;
      const grantOrigin = canonicalOrigin(grant.origin);
      if (grantOrigin === undefined) return false;
      const asker = askerOf(call.caller);
      return this.#grants.has(standingKey(asker, grant.operation, grantOrigin));
    } catch {
      return false;
    }
  }

  /**
   * Takes back a waiting request of the asking connection (a workflow run that ended); a
   * request already decided, another connection's, or unknown is left alone.
   */
  withdraw(requestId: string, call: ToolCall): boolean {
    try {
      const asker = askerOf(call.caller);
      for (const [key, entry] of this.#entries) {
        if (entry.id !== requestId || entry.asker.connectionId !== asker.connectionId) continue;
        if (entry.status !== 'waiting') return false;
        this.#entries.delete(key);
        return true;
      }
      return false;
    } catch {
      return false;
    }
  }

  /** Every standing grant held, oldest first (the map keeps the order they were given in). */
  grants(): StandingGrant[] {
    return [...this.#grants.values()];
  }

  /**
   * Ends standing grants at once (`vmark approvals revoke`, Settings): the next call one covered
   * asks a person again.
   * @throws GrantNotFoundError for an id not held; NotAnOriginError for an origin that is not one.
   */
  revoke(selector: GrantSelector): StandingGrant[] {
    let chosen: (grant: StandingGrant) => boolean;
    if ('id' in selector) {
      if (!this.grants().some((grant) => grant.id === selector.id)) throw new GrantNotFoundError(selector.id);
      chosen = (grant) => grant.id === selector.id;
    } else if ('origin' in selector) {
      const origin = canonicalOrigin(selector.origin);
      if (origin === undefined) throw new NotAnOriginError(selector.origin);
      chosen = (grant) => grant.origin === origin;
    } else {
      chosen = () => true;
    }
    const revoked: StandingGrant[] = [];
    for (const [key, grant] of this.#grants) {
      if (!chosen(grant)) continue;
      this.#grants.delete(key);
      revoked.push(grant);
    }
    if (revoked.length > 0) this.#grantsChanged();
    return revoked;
  }

  /** Told after a grant is given or revoked (the Settings list follows it). */
  onDidChangeGrants(listener: () => void): Disposable {
    this.#grantListeners.add(listener);
    return toDisposable(() => this.#grantListeners.delete(listener));
  }

  /** Every entry still held, oldest first. */
  list(): ApprovalEntry[] {
    this.#expire();
    return [...this.#entries.values()].sort((a, b) => a.createdAt - b.createdAt).map(publicEntry);
  }

  /**
   * A person's answer to a held request (`vmark approvals allow|deny`, or the UI
   * answering from its list). The next identical request of the connection that
   * asked finds it; for a connection that has gone, nobody ever will.
   * @throws ApprovalNotFoundError for an id that was used, has expired, or never existed;
   *   UntilNavigationNotOfferedError for "allow until navigation" of a request that did not offer it.
   */
  decide(id: string, decision: ApprovalDecision, by: ApproverKind = 'terminal'): ApprovalEntry {
    this.#expire();
    const entry = [...this.#entries.values()].find((candidate) => candidate.id === id);
    if (!entry) throw new ApprovalNotFoundError(id);
    if (decision === 'allow-until-navigation') {
      if (entry.request.untilNavigation !== true) throw new UntilNavigationNotOfferedError(id);
      entry.lasts = 'until-navigation';
    } else {
      delete entry.lasts;
    }
    const now = this.#clock.now();
    entry.status = decision === 'deny' ? 'denied' : 'allowed';
    entry.decidedBy = by;
    entry.decidedAt = now;
    entry.expiresAt = now + (decision === 'deny' ? DENIED_TTL_MS : ALLOWED_TTL_MS);
    return publicEntry(entry);
  }

  async #ask(
    request: Asked,
    requestId: string,
    asker: ApprovalAsker,
    call: ToolCall,
    onTurn: (kind: ApproverKind) => void,
  ): Promise<Answer> {
    for (const approver of [...this.#approvers]) {
      onTurn(approver.kind);
      let reply: unknown;
      try {
        reply = await approver.ask({ request, requestId, caller: call.caller }, call.signal);
      } catch {
        continue; // That window could not ask after all: try the next way to reach a person.
      }
      if (reply === 'allow-site' && request.grantOrigin !== undefined) {
        this.#grant(request, asker, approver.kind);
        return { by: approver.kind, decision: 'allow' };
      }
      if (reply === 'allow-until-navigation' && request.untilNavigation === true) {
        return { by: approver.kind, decision: 'allow-until-navigation' };
      }
      // Anything but an explicit "allow" (or a longer allowance where it was offered) is a refusal.
      return { by: approver.kind, decision: reply === 'allow' ? 'allow' : 'deny' };
    }
    const elicit = call.elicit;
    if (elicit === undefined) return null;
    onTurn('elicitation');
    let reply: unknown;
    try {
      const question = approvalQuestion(request, call.caller);
      // "Accept on this site" is offered only where a grant may be given, "until navigation" only where asked for.
      const offers = {
        ...(request.grantOrigin === undefined ? {} : { offerSite: request.grantOrigin }),
        ...(request.untilNavigation === true ? { offerUntilNavigation: true } : {}),
      };
      reply = await (Object.keys(offers).length === 0 ? elicit(question) : elicit(question, offers));
    } catch {
      // The client declared elicitation but could not ask (no UI, timeout, aborted): leave it to the terminal.
      return null;
    }
    if (reply === 'accept-site' && request.grantOrigin !== undefined) {
      this.#grant(request, asker, 'elicitation');
      return { by: 'elicitation', decision: 'allow' };
    }
    // A decline or cancel is not remembered: the person was asked and may be asked again.
    if (reply === 'accept-until-navigation' && request.untilNavigation === true) {
      return { by: 'elicitation', decision: 'allow-until-navigation' };
    }
    return { by: 'elicitation', decision: reply === 'accept' ? 'allow' : 'deny' };
  }

  #grant(request: Asked, asker: ApprovalAsker, by: ApproverKind): void {
    const key = grantKeyOf(request, asker);
    if (this.#grants.has(key)) return;
    this.#grants.set(key, {
      id: this.#newGrantId(),
      operation: request.operation,
      origin: request.grantOrigin!,
      connectionId: asker.connectionId,
      clientName: asker.clientName,
      principal: asker.principal,
      grantedBy: by,
      grantedAt: new Date(this.#clock.now()).toISOString(),
    });
    this.#grantsChanged();
  }

  #grantsChanged(): void {
    for (const listener of [...this.#grantListeners]) {
      try {
        listener();
      } catch {
        // A listener's failure (a window gone) must not undo or block a grant's change.
      }
    }
  }

  #enqueue(key: string, id: string, request: ApprovalRequest, asker: ApprovalAsker): ApprovalOutcome {
    const waiting = [...this.#entries.values()].filter((entry) => entry.status === 'waiting');
    if (waiting.length >= MAX_WAITING) {
      throw new DomainError(
        'RESOURCE_EXHAUSTED',
        `Too many approval requests are waiting for a person; at most ${MAX_WAITING} may wait. ` +
          'Ask the user to answer them (vmark approvals list) or wait for them to expire before trying again.',
      );
    }
    const own = waiting.filter((entry) => entry.asker.connectionId === asker.connectionId).length;
    if (own >= MAX_WAITING_PER_CONNECTION) {
      throw new DomainError(
        'RESOURCE_EXHAUSTED',
        `Too many approval requests of this connection are waiting for a person; at most ` +
          `${MAX_WAITING_PER_CONNECTION} may wait per connection. Ask the user to answer them ` +
          '(vmark approvals list) or wait for them to expire before asking for anything else.',
      );
    }
    const now = this.#clock.now();
    this.#entries.set(key, {
      id,
      key,
      request,
      asker,
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
      return allowed(entry.id, by, entry.lasts === undefined ? 'allow' : 'allow-until-navigation');
    }
    return { decision: 'denied', requestId: entry.id, by };
  }

  #expire(): void {
    const now = this.#clock.now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }

  #newGrantId(): string {
    const taken = new Set(this.grants().map((grant) => grant.id));
    let id = newGrantId();
    while (taken.has(id)) id = newGrantId();
    return id;
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
function snapshot(request: ApprovalRequest): Asked {
  const { operation, subject, origin, requested, warning, detail, image, grantable, untilNavigation } =
    request;
  if (typeof operation !== 'string' || operation === '' || typeof subject !== 'string') {
    throw new TypeError('An approval request needs an operation and a subject');
  }
  for (const [name, value] of Object.entries({ origin, requested, warning, detail })) {
    if (value !== undefined && typeof value !== 'string') throw new TypeError(`${name} must be a string`);
  }
  if (untilNavigation !== undefined && typeof untilNavigation !== 'boolean') {
    throw new TypeError('untilNavigation must be a boolean');
  }
  // Bounded and of one kind only: the UI puts it in an <img>, and a queue of them is held in memory.
  if (
    image !== undefined &&
    (typeof image !== 'string' ||
      !image.startsWith(APPROVAL_IMAGE_PREFIX) ||
      image.length > MAX_APPROVAL_IMAGE_CHARS)
  ) {
    throw new TypeError(
      `image must be a ${APPROVAL_IMAGE_PREFIX} URL of at most ${MAX_APPROVAL_IMAGE_CHARS} characters`,
    );
  }
  // The broker's own rule, not the plugin's: some operations are never standing, and a grant needs an origin.
  const grantOrigin =
    grantable === true && !NEVER_STANDING.has(operation) && origin !== undefined
      ? canonicalOrigin(origin)
      : undefined;
  return Object.freeze({
    operation,
    subject,
    ...(origin === undefined ? {} : { origin }),
    ...(requested === undefined ? {} : { requested }),
    ...(warning === undefined ? {} : { warning }),
    ...(detail === undefined ? {} : { detail }),
    ...(image === undefined ? {} : { image }),
    grantable: grantOrigin !== undefined,
    ...(untilNavigation === true ? { untilNavigation } : {}),
    ...(grantOrigin === undefined ? {} : { grantOrigin }),
  });
}

/** The caller's identity, checked: without a connection to bind it to, nothing is asked or kept. */
function askerOf(caller: ToolCaller): ApprovalAsker {
  const { connectionId, clientName, principal } = caller;
  if (typeof connectionId !== 'string' || connectionId === '') {
    throw new TypeError('An approval request needs the connection that asks');
  }
  return Object.freeze({
    connectionId,
    clientName: String(clientName),
    principal: typeof principal === 'string' ? principal : null,
  });
}

/** What tells requests apart. Not the image: a retry's fresh crop of a page is the same request. */
function keyOf(request: ApprovalRequest, asker: ApprovalAsker): string {
  const { operation, subject, origin, requested, warning, detail } = request;
  // The choices offered are part of the question: one asked with "until navigation" is another.
  const offered = request.untilNavigation === true ? 'until-navigation' : undefined;
  return JSON.stringify(
    [asker.connectionId, operation, subject, origin, requested, warning, detail, offered].map(orNull),
  );
}

function grantKeyOf(request: Asked, asker: ApprovalAsker): string {
  return standingKey(asker, request.operation, request.grantOrigin ?? null);
}

function standingKey(asker: ApprovalAsker, operation: string, origin: string | null): string {
  return JSON.stringify([asker.connectionId, operation, origin]);
}

function orNull(value: string | undefined): string | null {
  return value ?? null;
}

function publicEntry(entry: Pending): ApprovalEntry {
  const { request } = entry;
  return {
    id: entry.id,
    ...shownRequest(request),
    status: entry.status,
    createdAt: new Date(entry.createdAt).toISOString(),
    expiresAt: new Date(entry.expiresAt).toISOString(),
    clientName: entry.asker.clientName,
    connectionId: entry.asker.connectionId,
    principal: entry.asker.principal,
    ...(request.untilNavigation === true ? { untilNavigation: true } : {}),
    ...(entry.lasts === undefined ? {} : { lasts: entry.lasts }),
    ...(entry.decidedBy === undefined ? {} : { decidedBy: entry.decidedBy }),
    ...(entry.decidedAt === undefined ? {} : { decidedAt: new Date(entry.decidedAt).toISOString() }),
  };
}
