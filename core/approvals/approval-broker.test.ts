import type { ApprovalRequest, ElicitationAnswer, ToolCall } from '@vmark/sdk';
import { APPROVAL_IMAGE_PREFIX, ApprovalsToken, MAX_APPROVAL_IMAGE_CHARS } from '@vmark/sdk';
import { domainErrorOf } from '@vmark/sdk/testing';
import { Container } from 'inversify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApprovalNotFoundError, UntilNavigationNotOfferedError } from './approval-entry.js';
import { DECEPTIVE_CHARACTERS } from '../protocol/deceptive-characters.js';
import { APPROVAL_ID, GRANT_ID } from './approval-id.js';
import { GrantNotFoundError, NotAnOriginError } from './standing-grant.js';
import {
  ALLOWED_TTL_MS,
  ApprovalBroker,
  DENIED_TTL_MS,
  MAX_WAITING,
  MAX_WAITING_PER_CONNECTION,
  WAITING_TTL_MS,
} from './approval-broker.js';
import type { Approver, ApproverQuestion } from './approver.js';
import { type Clock, ClockToken } from './clock.js';

const OPEN: ApprovalRequest = { operation: 'open_workspace', subject: '/home/me/notes', grantable: false };

class FakeClock implements Clock {
  time = Date.parse('2026-01-02T03:04:05.000Z');
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

function toolCall(
  elicit?: (message: string) => Promise<ElicitationAnswer>,
  connectionId = 'conn-1',
): ToolCall {
  return {
    tool: 'workspace',
    action: 'open',
    caller: { connectionId, clientName: 'test-client', clientVersion: '1.0.0', principal: null },
    signal: new AbortController().signal,
    progress: () => undefined,
    ...(elicit ? { elicit } : {}),
  };
}

/** A call of another connection: client B beside client A (`toolCall()`), same name, same host. */
function callOf(connectionId: string, elicit?: (message: string) => Promise<ElicitationAnswer>): ToolCall {
  return toolCall(elicit, connectionId);
}

function uiApprover(ask: Approver['ask']): Approver {
  return { kind: 'ui', ask };
}

let clock: FakeClock;
let broker: ApprovalBroker;

beforeEach(() => {
  clock = new FakeClock();
  broker = new ApprovalBroker(clock);
});

describe('elicitation', () => {
  it('allows in the same call when the person accepts, and keeps nothing', async () => {
    const elicit = vi.fn(() => Promise.resolve<ElicitationAnswer>('accept'));
    const outcome = await broker.request(OPEN, toolCall(elicit));
    expect(outcome).toEqual({
      decision: 'allowed',
      requestId: expect.stringMatching(APPROVAL_ID),
      by: 'elicitation',
    });
    expect(elicit).toHaveBeenCalledTimes(1);
    expect(broker.list()).toEqual([]);
  });

  it.each(['decline', 'cancel'] as const)('denies on %s without remembering it', async (answer) => {
    const elicit = vi.fn(() => Promise.resolve<ElicitationAnswer>(answer));
    expect(await broker.request(OPEN, toolCall(elicit))).toMatchObject({
      decision: 'denied',
      by: 'elicitation',
    });
    expect(broker.list()).toEqual([]);
    // Asked again: the person may have changed their mind.
    elicit.mockResolvedValueOnce('accept');
    expect(await broker.request(OPEN, toolCall(elicit))).toMatchObject({ decision: 'allowed' });
    expect(elicit).toHaveBeenCalledTimes(2);
  });

  it('leaves the request waiting when elicitation fails', async () => {
    const elicit = vi.fn(() => Promise.reject(new Error('client has no UI')));
    const outcome = await broker.request(OPEN, toolCall(elicit));
    expect(outcome).toEqual({ decision: 'pending', requestId: expect.stringMatching(APPROVAL_ID) });
    expect(broker.list()).toMatchObject([{ id: outcome.requestId, status: 'waiting' }]);
  });

  it('refuses an answer it does not know (fails closed)', async () => {
    const odd = (() => Promise.resolve('yes')) as unknown as (message: string) => Promise<ElicitationAnswer>;
    expect(await broker.request(OPEN, toolCall(odd))).toMatchObject({
      decision: 'denied',
      by: 'elicitation',
    });
  });

  it('names the operation and the exact subject', async () => {
    const elicit = vi.fn((_message: string) => Promise.resolve<ElicitationAnswer>('decline'));
    await broker.request(OPEN, toolCall(elicit));
    expect(elicit).toHaveBeenCalledWith(
      'VMark: allow open_workspace on "/home/me/notes"? ' +
        'Asked by "test-client" (connection conn-1, not an installed client).',
    );
  });

  it('shows a subject with quotes, newlines and invisible characters unambiguously', async () => {
    const elicit = vi.fn((_message: string) => Promise.resolve<ElicitationAnswer>('decline'));
    const subject = '/tmp/a" on "/etc\nb\u202Etxt.md\u200B';
    await broker.request({ operation: 'save_as', subject, grantable: false }, toolCall(elicit));
    const message = elicit.mock.calls[0]![0];
    const question = message.slice(0, message.indexOf('? Asked by '));
    expect(question).toBe('VMark: allow save_as on "/tmp/a\\" on \\"/etc\\nb\\u202etxt.md\\u200b"');
    // The quoted part decodes back to exactly the subject.
    const quoted = question.slice('VMark: allow save_as on '.length);
    expect(JSON.parse(quoted)).toBe(subject);
  });

  it("escapes every deceptive character of the protocol's list in the question", async () => {
    const elicit = vi.fn((_message: string) => Promise.resolve<ElicitationAnswer>('decline'));
    const ends = DECEPTIVE_CHARACTERS.flatMap(({ first, last }) => [first, last]);
    const subject = `/tmp/${String.fromCodePoint(...ends)}.md`;
    await broker.request({ operation: 'save_as', subject, grantable: false }, toolCall(elicit));
    const message = elicit.mock.calls[0]![0];
    const quoted = message.slice('VMark: allow save_as on '.length, message.indexOf('? Asked by '));
    expect(quoted).toMatch(/^"\/tmp\/(\\u[0-9a-f]{4})+\.md"$/);
    expect(JSON.parse(quoted)).toBe(subject);
  });

  it('shows the whole script of execute_js, and the origin', async () => {
    const script = `${'const x = 1;\n'.repeat(2000)}document.title = "done";`;
    const elicit = vi.fn((_message: string) => Promise.resolve<ElicitationAnswer>('decline'));
    await broker.request(
      { operation: 'execute_js', subject: script, origin: 'https://example.com', grantable: false },
      toolCall(elicit),
    );
    const message = elicit.mock.calls[0]![0];
    expect(message).toBe(
      `VMark: allow execute_js on ${JSON.stringify(script)} (origin "https://example.com")? ` +
        'Asked by "test-client" (connection conn-1, not an installed client).',
    );
  });
});

describe('the terminal queue', () => {
  it('waits, then lets the retried request through exactly once after a terminal allow', async () => {
    const first = await broker.request(OPEN, toolCall());
    expect(first).toEqual({ decision: 'pending', requestId: expect.stringMatching(APPROVAL_ID) });

    const decided = broker.decide(first.requestId, 'allow');
    expect(decided).toMatchObject({ id: first.requestId, status: 'allowed', decidedBy: 'terminal' });

    expect(await broker.request(OPEN, toolCall())).toEqual({
      decision: 'allowed',
      requestId: first.requestId,
      by: 'terminal',
    });
    const again = await broker.request(OPEN, toolCall());
    expect(again.decision).toBe('pending');
    expect(again.requestId).not.toBe(first.requestId);
  });

  it('keeps refusing after a terminal deny until someone allows the entry', async () => {
    const { requestId } = await broker.request(OPEN, toolCall());
    broker.decide(requestId, 'deny');
    const elicit = vi.fn(() => Promise.resolve<ElicitationAnswer>('accept'));
    for (let i = 0; i < 3; i++) {
      expect(await broker.request(OPEN, toolCall(elicit))).toEqual({
        decision: 'denied',
        requestId,
        by: 'terminal',
      });
    }
    expect(elicit).not.toHaveBeenCalled();
    broker.decide(requestId, 'allow');
    expect(await broker.request(OPEN, toolCall())).toMatchObject({ decision: 'allowed', requestId });
  });

  it('never queues a duplicate for a retried waiting request', async () => {
    const first = await broker.request(OPEN, toolCall());
    const [second, third] = await Promise.all([
      broker.request(OPEN, toolCall()),
      broker.request({ ...OPEN, grantable: true }, toolCall()),
    ]);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(broker.list()).toHaveLength(1);
  });

  it('asks a reachable approver again for a waiting request', async () => {
    const { requestId } = await broker.request(OPEN, toolCall());
    const outcome = await broker.request(
      OPEN,
      toolCall(() => Promise.resolve('accept')),
    );
    expect(outcome).toEqual({ decision: 'allowed', requestId, by: 'elicitation' });
    expect(broker.list()).toEqual([]);
  });

  it('keeps one entry per operation, subject and origin', async () => {
    await broker.request(OPEN, toolCall());
    await broker.request({ ...OPEN, subject: '/home/me/other' }, toolCall());
    await broker.request({ ...OPEN, operation: 'save_as' }, toolCall());
    await broker.request({ ...OPEN, origin: 'https://a.example' }, toolCall());
    await broker.request({ ...OPEN, origin: 'https://b.example' }, toolCall());
    expect(broker.list()).toHaveLength(5);
  });

  it('describes entries for a person deciding on them', async () => {
    const { requestId } = await broker.request(
      { operation: 'navigate', subject: 'https://a.example/x', origin: 'https://a.example', grantable: true },
      toolCall(),
    );
    expect(broker.list()).toEqual([
      {
        id: requestId,
        operation: 'navigate',
        subject: 'https://a.example/x',
        origin: 'https://a.example',
        status: 'waiting',
        createdAt: '2026-01-02T03:04:05.000Z',
        expiresAt: new Date(clock.time + WAITING_TTL_MS).toISOString(),
        clientName: 'test-client',
        connectionId: 'conn-1',
        principal: null,
      },
    ]);
  });

  it('refuses to decide on an unknown id, clearly', () => {
    expect(() => broker.decide('apr-AAAAAAAA', 'allow')).toThrow(ApprovalNotFoundError);
    expect(() => broker.decide('apr-AAAAAAAA', 'allow')).toThrow(/No approval request apr-AAAAAAAA/);
  });

  it('lets a refusal given while the client was being asked win', async () => {
    const { requestId } = await broker.request(OPEN, toolCall());
    let answer!: (value: ElicitationAnswer) => void;
    const asking = broker.request(
      OPEN,
      toolCall(() => new Promise((resolve) => (answer = resolve))),
    );
    await vi.waitFor(() => expect(answer).toBeDefined());
    broker.decide(requestId, 'deny');
    answer('accept');
    expect(await asking).toEqual({ decision: 'denied', requestId, by: 'terminal' });
  });
});

describe('the bound', () => {
  /** Fills the whole queue, from as few connections as their share allows. */
  async function fill(): Promise<void> {
    for (let i = 0; i < MAX_WAITING; i++) {
      const call = callOf(`conn-${1 + Math.floor(i / MAX_WAITING_PER_CONNECTION)}`);
      expect(await broker.request({ ...OPEN, subject: `/w/${i}` }, call)).toMatchObject({
        decision: 'pending',
      });
    }
  }

  it('refuses a new waiting request past MAX_WAITING, from any connection, and stores nothing', async () => {
    await fill();
    const error = await domainErrorOf(
      broker.request({ ...OPEN, subject: '/w/one-too-many' }, callOf('conn-9')),
    );
    expect(error.code).toBe('RESOURCE_EXHAUSTED');
    expect(error.message).toMatch(
      /^Too many approval requests are waiting for a person; at most 16 may wait/,
    );
    expect(broker.list()).toHaveLength(MAX_WAITING);
    expect(broker.list().some((entry) => entry.subject === '/w/one-too-many')).toBe(false);
  });

  it('gives one connection at most its share, so another client can still be heard', async () => {
    for (let i = 0; i < MAX_WAITING_PER_CONNECTION; i++) {
      await broker.request({ ...OPEN, subject: `/loop/${i}` }, toolCall());
    }
    const error = await domainErrorOf(broker.request({ ...OPEN, subject: '/loop/more' }, toolCall()));
    expect(error.code).toBe('RESOURCE_EXHAUSTED');
    expect(error.message).toMatch(
      /^Too many approval requests of this connection are waiting.*at most 8 may wait per connection/,
    );
    // Its retries still find their entries, and another connection is queued.
    expect(await broker.request({ ...OPEN, subject: '/loop/0' }, toolCall())).toMatchObject({
      decision: 'pending',
    });
    expect(await broker.request(OPEN, callOf('conn-2'))).toMatchObject({ decision: 'pending' });
    expect(broker.list()).toHaveLength(MAX_WAITING_PER_CONNECTION + 1);
  });

  it('counts only waiting entries against the share: a decided one makes room', async () => {
    for (let i = 0; i < MAX_WAITING_PER_CONNECTION; i++) {
      await broker.request({ ...OPEN, subject: `/loop/${i}` }, toolCall());
    }
    broker.decide(broker.list()[0]!.id, 'deny');
    expect(await broker.request({ ...OPEN, subject: '/loop/next' }, toolCall())).toMatchObject({
      decision: 'pending',
    });
  });

  it('still answers retries of waiting requests and requests a person answers at once', async () => {
    await fill();
    expect(await broker.request({ ...OPEN, subject: '/w/3' }, toolCall())).toMatchObject({
      decision: 'pending',
    });
    const accepted = await broker.request(
      { ...OPEN, subject: '/new' },
      toolCall(() => Promise.resolve('accept')),
    );
    expect(accepted.decision).toBe('allowed');
  });

  it('makes room again once a waiting request is decided', async () => {
    await fill();
    broker.decide(broker.list()[0]!.id, 'deny');
    expect(await broker.request({ ...OPEN, subject: '/w/next' }, toolCall())).toMatchObject({
      decision: 'pending',
    });
  });
});

describe('bound to the asking connection', () => {
  it("does not let another connection spend an allow: B is asked on its own, A's retry goes ahead", async () => {
    const a = await broker.request(OPEN, toolCall());
    broker.decide(a.requestId, 'allow');
    const b = await broker.request(OPEN, callOf('conn-2'));
    expect(b).toEqual({ decision: 'pending', requestId: expect.stringMatching(APPROVAL_ID) });
    expect(b.requestId).not.toBe(a.requestId);
    expect(await broker.request(OPEN, toolCall())).toEqual({
      decision: 'allowed',
      requestId: a.requestId,
      by: 'terminal',
    });
    // B's own request still waits for its own answer.
    expect(broker.list()).toMatchObject([{ id: b.requestId, status: 'waiting', connectionId: 'conn-2' }]);
  });

  it("does not refuse another connection with a deny: B's client is asked itself", async () => {
    const a = await broker.request(OPEN, toolCall());
    broker.decide(a.requestId, 'deny');
    const elicit = vi.fn(() => Promise.resolve<ElicitationAnswer>('accept'));
    expect(await broker.request(OPEN, callOf('conn-2', elicit))).toMatchObject({
      decision: 'allowed',
      by: 'elicitation',
    });
    expect(elicit).toHaveBeenCalledTimes(1);
    expect(await broker.request(OPEN, toolCall(elicit))).toMatchObject({
      decision: 'denied',
      requestId: a.requestId,
    });
    expect(elicit).toHaveBeenCalledTimes(1);
  });

  it('keeps a waiting entry of each connection, each listed with who asks', async () => {
    const a = await broker.request(OPEN, toolCall());
    const b = await broker.request(OPEN, {
      ...callOf('conn-2'),
      caller: {
        connectionId: 'conn-2',
        clientName: 'claude-code',
        clientVersion: '2',
        principal: 'claude-code',
      },
    });
    expect(broker.list()).toMatchObject([
      { id: a.requestId, clientName: 'test-client', connectionId: 'conn-1', principal: null },
      { id: b.requestId, clientName: 'claude-code', connectionId: 'conn-2', principal: 'claude-code' },
    ]);
  });

  it('lets a reconnected client (a new connection) be asked anew; its old entry can be answered but not spent', async () => {
    const old = await broker.request(OPEN, toolCall());
    const renewed = await broker.request(OPEN, callOf('conn-7'));
    expect(renewed.requestId).not.toBe(old.requestId);
    expect(broker.decide(old.requestId, 'allow')).toMatchObject({
      status: 'allowed',
      connectionId: 'conn-1',
    });
    expect(await broker.request(OPEN, callOf('conn-7'))).toEqual({
      decision: 'pending',
      requestId: renewed.requestId,
    });
    expect(await broker.request(OPEN, callOf('conn-8'))).toMatchObject({ decision: 'pending' });
    expect(broker.list().find((entry) => entry.id === old.requestId)).toMatchObject({ status: 'allowed' });
  });

  it("answers a UI approver's question for the asking connection only, and names it", async () => {
    const asked: ApproverQuestion[] = [];
    broker.registerApprover(
      uiApprover((question) => {
        asked.push(question);
        return Promise.resolve('allow');
      }),
    );
    expect(await broker.request(OPEN, toolCall())).toMatchObject({ decision: 'allowed', by: 'ui' });
    expect(await broker.request(OPEN, callOf('conn-2'))).toMatchObject({ decision: 'allowed', by: 'ui' });
    expect(asked.map((question) => question.caller.connectionId)).toEqual(['conn-1', 'conn-2']);
  });

  it('keeps a standing grant to the connection a person gave it to', async () => {
    const NAVIGATE: ApprovalRequest = {
      operation: 'navigate',
      subject: 'https://a.example/one',
      origin: 'https://a.example',
      grantable: true,
    };
    const registration = broker.registerApprover(uiApprover(() => Promise.resolve('allow-site')));
    expect(await broker.request(NAVIGATE, toolCall())).toMatchObject({ decision: 'allowed' });
    registration.dispose();
    expect(await broker.request({ ...NAVIGATE, subject: 'https://a.example/two' }, toolCall())).toMatchObject(
      {
        decision: 'allowed',
      },
    );
    expect(await broker.request(NAVIGATE, callOf('conn-2'))).toMatchObject({ decision: 'pending' });
  });

  it('treats another spelling of the subject, or another warning, as another request', async () => {
    const plain = await broker.request(OPEN, toolCall());
    const viaLink = await broker.request({ ...OPEN, requested: '/home/me/link' }, toolCall());
    const warned = await broker.request({ ...OPEN, warning: 'nothing exists at this path.' }, toolCall());
    expect(new Set([plain.requestId, viaLink.requestId, warned.requestId]).size).toBe(3);
    expect(broker.list()).toMatchObject([
      { id: plain.requestId },
      { id: viaLink.requestId, requested: '/home/me/link' },
      { id: warned.requestId, warning: 'nothing exists at this path.' },
    ]);
    expect(broker.list()[0]).not.toHaveProperty('requested');
  });

  it('treats another detail (a save_as over other bytes) as another request, and tells it', async () => {
    const SAVE = { operation: 'save_as', subject: '/home/me/notes/b.md', grantable: false };
    const elicit = vi.fn((_message: string) => Promise.resolve<ElicitationAnswer>('decline'));
    const first = await broker.request({ ...SAVE, detail: 'It replaces 4 bytes (SHA-256 aa).' }, toolCall());
    const other = await broker.request(
      { ...SAVE, detail: 'It replaces 5 bytes (SHA-256 bb).' },
      toolCall(elicit),
    );
    expect(first.requestId).not.toBe(other.requestId);
    expect(broker.list()).toMatchObject([
      { id: first.requestId, detail: 'It replaces 4 bytes (SHA-256 aa).' },
    ]);
    expect(elicit).toHaveBeenCalledWith(
      'VMark: allow save_as on "/home/me/notes/b.md"? It replaces 5 bytes (SHA-256 bb). Asked by "test-client" ' +
        '(connection conn-1, not an installed client).',
    );
  });

  it('tells the person at the client what the client wrote, why it cannot be done, and who asks', async () => {
    const elicit = vi.fn((_message: string) => Promise.resolve<ElicitationAnswer>('decline'));
    await broker.request(
      { ...OPEN, requested: '/proc/self/cwd', warning: 'nothing exists at this path.' },
      {
        ...toolCall(elicit),
        caller: {
          connectionId: 'conn-3',
          clientName: 'claude-code',
          clientVersion: '2',
          principal: 'work-laptop',
        },
      },
    );
    expect(elicit).toHaveBeenCalledWith(
      'VMark: allow open_workspace on "/home/me/notes" (asked as "/proc/self/cwd")? Note: nothing exists at ' +
        'this path. Asked by "claude-code" (connection conn-3, installed client "work-laptop").',
    );
  });

  it('refuses, without asking or keeping anything, a call that names no connection', async () => {
    const elicit = vi.fn(() => Promise.resolve<ElicitationAnswer>('accept'));
    const call = toolCall(elicit);
    const anonymous = { ...call, caller: { ...call.caller, connectionId: '' } };
    expect(await broker.request(OPEN, anonymous)).toMatchObject({ decision: 'denied' });
    expect(elicit).not.toHaveBeenCalled();
    expect(broker.list()).toEqual([]);
  });
});

describe('expiry', () => {
  it('forgets a waiting request after 10 minutes', async () => {
    const { requestId } = await broker.request(OPEN, toolCall());
    clock.advance(WAITING_TTL_MS - 1);
    expect(broker.list()).toHaveLength(1);
    clock.advance(1);
    expect(broker.list()).toEqual([]);
    expect(() => broker.decide(requestId, 'allow')).toThrow(ApprovalNotFoundError);
    const retry = await broker.request(OPEN, toolCall());
    expect(retry.decision).toBe('pending');
    expect(retry.requestId).not.toBe(requestId);
  });

  it('forgets an unused allowance 5 minutes after it was given', async () => {
    const { requestId } = await broker.request(OPEN, toolCall());
    clock.advance(WAITING_TTL_MS - 1000); // Decided late: the allowance still gets its full time.
    broker.decide(requestId, 'allow');
    clock.advance(ALLOWED_TTL_MS - 1);
    expect(broker.list()).toMatchObject([{ status: 'allowed' }]);
    clock.advance(1);
    expect(broker.list()).toEqual([]);
    expect((await broker.request(OPEN, toolCall())).decision).toBe('pending');
  });

  it('stops refusing 30 minutes after a deny', async () => {
    const { requestId } = await broker.request(OPEN, toolCall());
    broker.decide(requestId, 'deny');
    clock.advance(DENIED_TTL_MS - 1);
    expect((await broker.request(OPEN, toolCall())).decision).toBe('denied');
    clock.advance(1);
    expect((await broker.request(OPEN, toolCall())).decision).toBe('pending');
  });
});

describe('UI approvers', () => {
  it('asks a UI approver first, and its answer wins', async () => {
    const elicit = vi.fn(() => Promise.resolve<ElicitationAnswer>('accept'));
    const ask = vi.fn((_question: ApproverQuestion) => Promise.resolve<'allow' | 'deny'>('deny'));
    broker.registerApprover(uiApprover(ask));
    const call = toolCall(elicit);
    const outcome = await broker.request(OPEN, call);
    expect(outcome).toEqual({ decision: 'denied', requestId: expect.stringMatching(APPROVAL_ID), by: 'ui' });
    expect(ask).toHaveBeenCalledWith(
      {
        request: expect.objectContaining({ operation: 'open_workspace' }),
        requestId: outcome.requestId,
        caller: call.caller,
      },
      expect.any(AbortSignal),
    );
    expect(elicit).not.toHaveBeenCalled();

    ask.mockResolvedValueOnce('allow');
    expect(await broker.request(OPEN, toolCall(elicit))).toMatchObject({ decision: 'allowed', by: 'ui' });
    expect(elicit).not.toHaveBeenCalled();
  });

  it('falls through to elicitation when the UI cannot ask, and stops asking a disposed approver', async () => {
    const ask = vi.fn(() => Promise.reject(new Error('window closed')));
    const registration = broker.registerApprover(uiApprover(ask));
    const elicit = vi.fn(() => Promise.resolve<ElicitationAnswer>('accept'));
    expect(await broker.request(OPEN, toolCall(elicit))).toMatchObject({
      decision: 'allowed',
      by: 'elicitation',
    });
    registration.dispose();
    expect(await broker.request(OPEN, toolCall(elicit))).toMatchObject({ decision: 'allowed' });
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it('treats an answer other than allow as a refusal', async () => {
    broker.registerApprover(uiApprover(() => Promise.resolve('ok' as 'allow')));
    expect(await broker.request(OPEN, toolCall())).toMatchObject({ decision: 'denied', by: 'ui' });
  });
});

describe('a picture of what it concerns', () => {
  const png = (base64: string): string => APPROVAL_IMAGE_PREFIX + base64;
  const CLICK: ApprovalRequest = {
    operation: 'click',
    subject: 'click button “Pay” — on https://shop.test/cart (tab-1, page 1)',
    origin: 'https://shop.test',
    image: png('iVBORw0KGgo='),
    grantable: true,
  };

  it('goes to the UI approver, not to the waiting list or an elicitation', async () => {
    const ask = vi.fn((_question: ApproverQuestion) => Promise.reject(new Error('window closed')));
    broker.registerApprover(uiApprover(ask));
    const elicit = vi.fn((_message: string) => Promise.reject(new Error('no UI')));
    const outcome = await broker.request(CLICK, toolCall(elicit));
    expect(outcome.decision).toBe('pending');
    expect(ask.mock.calls[0]![0].request.image).toBe(CLICK.image);
    expect(elicit.mock.calls[0]![0]).not.toContain('iVBOR');
    expect(broker.list()).toHaveLength(1);
    expect(JSON.stringify(broker.list())).not.toContain('iVBOR');
  });

  it('is not part of what is decided: a retry with a fresh crop finds the answer', async () => {
    const outcome = await broker.request(CLICK, toolCall());
    broker.decide(outcome.requestId, 'allow');
    const retry = await broker.request({ ...CLICK, image: png('AAAA') }, toolCall());
    expect(retry).toMatchObject({ decision: 'allowed', requestId: outcome.requestId });
  });

  it('refuses anything but a bounded PNG data URL, asking nobody', async () => {
    const ask = vi.fn(() => Promise.resolve<'allow'>('allow'));
    broker.registerApprover(uiApprover(ask));
    for (const image of [
      'data:image/svg+xml;base64,PHN2Zy8+',
      'javascript:alert(1)',
      png('A'.repeat(MAX_APPROVAL_IMAGE_CHARS)),
      42,
    ]) {
      const bad = { ...CLICK, image } as unknown as ApprovalRequest;
      expect(await broker.request(bad, toolCall())).toMatchObject({ decision: 'denied' });
    }
    expect(ask).not.toHaveBeenCalled();
    expect(broker.list()).toEqual([]);
  });
});

describe('failing closed', () => {
  it('denies a malformed request instead of matching it loosely', async () => {
    const elicit = vi.fn(() => Promise.resolve<ElicitationAnswer>('accept'));
    const malformed = {
      operation: 'open_workspace',
      subject: 42,
      grantable: false,
    } as unknown as ApprovalRequest;
    expect(await broker.request(malformed, toolCall(elicit))).toMatchObject({ decision: 'denied' });
    expect(elicit).not.toHaveBeenCalled();
  });

  it('denies when something unexpected breaks while the request is stored', async () => {
    const broken = { ...toolCall(), caller: undefined } as unknown as ToolCall;
    expect(await broker.request(OPEN, broken)).toMatchObject({ decision: 'denied' });
    expect(broker.list()).toEqual([]);
  });
});

describe('dependency injection', () => {
  it('resolves with the system clock when no clock is bound, and serves the SDK token', async () => {
    const container = new Container();
    container.bind(ApprovalBroker).toSelf().inSingletonScope();
    container.bind(ApprovalsToken).toService(ApprovalBroker);
    const approvals = container.get(ApprovalsToken);
    expect(approvals).toBe(container.get(ApprovalBroker));
    await approvals.request(OPEN, toolCall());
    const [entry] = container.get(ApprovalBroker).list();
    expect(Math.abs(Date.parse(entry!.createdAt) - Date.now())).toBeLessThan(60_000);
  });

  it('uses a bound clock', async () => {
    const container = new Container();
    container.bind(ClockToken).toConstantValue(clock);
    container.bind(ApprovalBroker).toSelf();
    const injected = container.get(ApprovalBroker);
    await injected.request(OPEN, toolCall());
    expect(injected.list()[0]!.createdAt).toBe('2026-01-02T03:04:05.000Z');
  });
});

describe('standing grants', () => {
  const NAVIGATE: ApprovalRequest = {
    operation: 'navigate',
    subject: 'https://a.example/one',
    origin: 'https://a.example',
    grantable: true,
  };

  it('remembers "allow on this site" for the operation on that origin only', async () => {
    const ask = vi.fn((_question: ApproverQuestion, _signal: AbortSignal) =>
      Promise.resolve<'allow-site' | 'deny'>('allow-site'),
    );
    const registration = broker.registerApprover(uiApprover(ask));
    expect(await broker.request(NAVIGATE, toolCall())).toMatchObject({ decision: 'allowed', by: 'ui' });
    registration.dispose();
    // Nobody is asked again for another page of the same site.
    expect(await broker.request({ ...NAVIGATE, subject: 'https://a.example/two' }, toolCall())).toMatchObject(
      { decision: 'allowed', by: 'ui' },
    );
    expect(ask).toHaveBeenCalledTimes(1);
    // Another origin, or another operation, is not covered.
    expect(
      await broker.request(
        { ...NAVIGATE, origin: 'https://b.example', subject: 'https://b.example/' },
        toolCall(),
      ),
    ).toMatchObject({ decision: 'pending' });
    expect(await broker.request({ ...NAVIGATE, operation: 'click' }, toolCall())).toMatchObject({
      decision: 'pending',
    });
  });

  it('refuses "allow on this site" for a request that is not grantable, or has no origin', async () => {
    broker.registerApprover(uiApprover(() => Promise.resolve('allow-site')));
    expect(await broker.request({ ...NAVIGATE, grantable: false }, toolCall())).toMatchObject({
      decision: 'denied',
      by: 'ui',
    });
    expect(await broker.request(OPEN, toolCall())).toMatchObject({ decision: 'denied', by: 'ui' });
  });

  it('never applies a grant to a request that is not grantable', async () => {
    const answers: ('allow-site' | 'deny')[] = ['allow-site', 'deny'];
    broker.registerApprover(uiApprover(() => Promise.resolve(answers.shift() ?? 'deny')));
    expect(await broker.request(NAVIGATE, toolCall())).toMatchObject({ decision: 'allowed' });
    expect(await broker.request({ ...NAVIGATE, grantable: false }, toolCall())).toMatchObject({
      decision: 'denied',
    });
  });

  it('answers whether a grant stands without asking anyone, for its connection, operation and origin only', async () => {
    const ask = vi.fn(() => Promise.resolve<'allow-site'>('allow-site'));
    broker.registerApprover(uiApprover(ask));
    const click = { operation: 'click', origin: 'https://a.example' };
    expect(broker.hasStandingGrant(click, toolCall())).toBe(false);
    await broker.request({ ...NAVIGATE, operation: 'click' }, toolCall());
    expect(ask).toHaveBeenCalledTimes(1);
    expect(broker.hasStandingGrant(click, toolCall())).toBe(true);
    // Another spelling of the same origin is the same origin; nothing else is covered.
    expect(broker.hasStandingGrant({ ...click, origin: 'HTTPS://A.example:443' }, toolCall())).toBe(true);
    expect(broker.hasStandingGrant({ ...click, origin: 'https://b.example' }, toolCall())).toBe(false);
    expect(broker.hasStandingGrant({ ...click, operation: 'type' }, toolCall())).toBe(false);
    expect(broker.hasStandingGrant(click, callOf('conn-2'))).toBe(false);
    // Never standing, and malformed questions, answer no.
    expect(broker.hasStandingGrant({ operation: 'eval', origin: 'https://a.example' }, toolCall())).toBe(
      false,
    );
    expect(broker.hasStandingGrant({ ...click, origin: 'not an origin' }, toolCall())).toBe(false);
    expect(broker.hasStandingGrant(click, callOf(''))).toBe(false);
    expect(ask).toHaveBeenCalledTimes(1);
    broker.revoke({ all: true });
    expect(broker.hasStandingGrant(click, toolCall())).toBe(false);
  });

  it('passes the call signal to the UI approver, so a cancelled call withdraws its dialog', async () => {
    const ask = vi.fn((_question: ApproverQuestion, _signal: AbortSignal) => Promise.resolve<'deny'>('deny'));
    broker.registerApprover(uiApprover(ask));
    const call = toolCall();
    await broker.request(OPEN, call);
    expect(ask.mock.calls[0]![1]).toBe(call.signal);
  });
});

describe('standing grants, listed and revoked', () => {
  const CLICK: ApprovalRequest = {
    operation: 'click',
    subject: 'click button "Go" — on https://a.example/ (page 1)',
    origin: 'https://a.example',
    grantable: true,
  };
  const onSite = () => broker.registerApprover(uiApprover(() => Promise.resolve('allow-site')));

  it('lists each grant value-free: operation, canonical origin, who holds it, when and where given', async () => {
    const registration = onSite();
    await broker.request({ ...CLICK, origin: 'HTTPS://A.Example:443' }, toolCall());
    await broker.request({ ...CLICK, origin: 'https://Bücher.example.' }, callOf('conn-2'));
    registration.dispose();
    expect(broker.grants()).toEqual([
      {
        id: expect.stringMatching(GRANT_ID),
        operation: 'click',
        origin: 'https://a.example',
        connectionId: 'conn-1',
        clientName: 'test-client',
        principal: null,
        grantedBy: 'ui',
        grantedAt: '2026-01-02T03:04:05.000Z',
      },
      expect.objectContaining({ origin: 'https://xn--bcher-kva.example', connectionId: 'conn-2' }),
    ]);
    // The spelling does not matter: the canonical origin is what the grant covers.
    expect(await broker.request({ ...CLICK, origin: 'https://a.example:443/' }, toolCall())).toMatchObject({
      decision: 'allowed',
    });
    expect(JSON.stringify(broker.grants())).not.toContain('Go');
  });

  it('gives one grant per (connection, operation, origin), however often it is said', async () => {
    onSite();
    await broker.request(CLICK, toolCall());
    await broker.request({ ...CLICK, subject: 'another' }, toolCall());
    expect(broker.grants()).toHaveLength(1);
  });

  it('revokes one by id: the next call of that connection asks again', async () => {
    const registration = onSite();
    await broker.request(CLICK, toolCall());
    await broker.request({ ...CLICK, operation: 'type' }, toolCall());
    registration.dispose();
    const [click, type] = broker.grants();
    expect(broker.revoke({ id: click!.id })).toEqual([click]);
    expect(broker.grants()).toEqual([type]);
    expect(await broker.request(CLICK, toolCall())).toMatchObject({ decision: 'pending' });
    expect(() => broker.revoke({ id: click!.id })).toThrow(GrantNotFoundError);
    expect(() => broker.revoke({ id: 'grt-AAAAAAAA' })).toThrow(/already revoked, or never existed/);
  });

  it('revokes every grant on an origin, in any spelling of it, or all of them', async () => {
    onSite();
    await broker.request(CLICK, toolCall());
    await broker.request(CLICK, callOf('conn-2'));
    await broker.request({ ...CLICK, origin: 'https://b.example' }, toolCall());
    expect(broker.revoke({ origin: 'HTTPS://A.EXAMPLE:443' }).map((g) => g.connectionId)).toEqual([
      'conn-1',
      'conn-2',
    ]);
    expect(broker.grants().map((g) => g.origin)).toEqual(['https://b.example']);
    expect(broker.revoke({ origin: 'https://c.example' })).toEqual([]);
    expect(broker.revoke({ all: true })).toHaveLength(1);
    expect(broker.grants()).toEqual([]);
    expect(broker.revoke({ all: true })).toEqual([]);
  });

  it.each([
    'example.com',
    'ftp://example.com',
    'https://a.example/path',
    'https://u@a.example',
    'https://a..b',
  ])('refuses to revoke on %s, which is not an origin', (origin) => {
    expect(() => broker.revoke({ origin })).toThrow(NotAnOriginError);
  });

  it('tells listeners when a grant is given or revoked', async () => {
    const changes = vi.fn();
    const subscription = broker.onDidChangeGrants(changes);
    onSite();
    await broker.request(CLICK, toolCall());
    expect(changes).toHaveBeenCalledTimes(1);
    broker.revoke({ all: true });
    expect(changes).toHaveBeenCalledTimes(2);
    subscription.dispose();
    await broker.request(CLICK, toolCall());
    expect(changes).toHaveBeenCalledTimes(2);
  });

  it.each(['eval', 'session', 'record', 'upload'])(
    'never lets %s stand, even when the request says it may',
    async (operation) => {
      const asked: ApproverQuestion[] = [];
      broker.registerApprover(
        uiApprover((question) => {
          asked.push(question);
          return Promise.resolve('allow-site');
        }),
      );
      const outcome = await broker.request({ ...CLICK, operation, grantable: true }, toolCall());
      // Not offered to the person, so an "on this site" answer is a refusal, and nothing stands.
      expect(asked[0]!.request.grantable).toBe(false);
      expect(outcome).toMatchObject({ decision: 'denied' });
      expect(broker.grants()).toEqual([]);
    },
  );

  it('offers no grant on an origin that is not http(s)', async () => {
    onSite();
    expect(await broker.request({ ...CLICK, origin: 'file(opaque)' }, toolCall())).toMatchObject({
      decision: 'denied',
    });
    expect(broker.grants()).toEqual([]);
  });
});

describe('standing grants through elicitation', () => {
  const TYPE: ApprovalRequest = {
    operation: 'type',
    subject: 'type "hello" into textbox "Name" — on https://a.example/ (page 1)',
    origin: 'https://A.example',
    grantable: true,
  };

  it('offers "accept on this site" for a grantable request, and keeps the grant when it is chosen', async () => {
    const elicit = vi.fn((_message: string, _options?: { offerSite?: string }) =>
      Promise.resolve<ElicitationAnswer>('accept-site'),
    );
    expect(await broker.request(TYPE, toolCall(elicit))).toMatchObject({
      decision: 'allowed',
      by: 'elicitation',
    });
    expect(elicit.mock.calls[0]![1]).toEqual({ offerSite: 'https://a.example' });
    expect(broker.grants()).toMatchObject([
      { operation: 'type', origin: 'https://a.example', grantedBy: 'elicitation' },
    ]);
    // The next call on the site is not asked.
    expect(await broker.request({ ...TYPE, subject: 'other text' }, toolCall(elicit))).toMatchObject({
      decision: 'allowed',
      by: 'elicitation',
    });
    expect(elicit).toHaveBeenCalledTimes(1);
  });

  it('keeps nothing for "accept once"', async () => {
    const elicit = vi.fn(() => Promise.resolve<ElicitationAnswer>('accept'));
    expect(await broker.request(TYPE, toolCall(elicit))).toMatchObject({ decision: 'allowed' });
    expect(broker.grants()).toEqual([]);
    await broker.request(TYPE, toolCall(elicit));
    expect(elicit).toHaveBeenCalledTimes(2);
  });

  it.each(['eval', 'session', 'record', 'upload'])(
    'offers only once for %s, and treats an "on this site" answer as a refusal',
    async (operation) => {
      const elicit = vi.fn((_message: string, _options?: { offerSite?: string }) =>
        Promise.resolve<ElicitationAnswer>('accept-site'),
      );
      expect(await broker.request({ ...TYPE, operation }, toolCall(elicit))).toMatchObject({
        decision: 'denied',
      });
      expect(elicit.mock.calls[0]).toHaveLength(1);
      expect(broker.grants()).toEqual([]);
    },
  );
});

describe('withdrawing a waiting request', () => {
  it('takes it off the list for the connection that asked, and a later answer finds nothing', async () => {
    const { requestId } = await broker.request(OPEN, toolCall());
    // Another connection cannot take it back.
    expect(broker.withdraw(requestId, callOf('conn-2'))).toBe(false);
    expect(broker.list().map((entry) => entry.id)).toEqual([requestId]);
    expect(broker.withdraw(requestId, toolCall())).toBe(true);
    expect(broker.list()).toEqual([]);
    expect(() => broker.decide(requestId, 'allow')).toThrow(ApprovalNotFoundError);
    expect(broker.withdraw(requestId, toolCall())).toBe(false);
    // Asked again, it is a new request.
    expect((await broker.request(OPEN, toolCall())).requestId).not.toBe(requestId);
  });

  it('leaves a decided request alone: a person’s deny still holds', async () => {
    const { requestId } = await broker.request(OPEN, toolCall());
    broker.decide(requestId, 'deny');
    expect(broker.withdraw(requestId, toolCall())).toBe(false);
    expect((await broker.request(OPEN, toolCall())).decision).toBe('denied');
  });
});

describe('"allow until navigation"', () => {
  const ATTACH: ApprovalRequest = {
    operation: 'attach',
    subject: 'let the AI read and act in your tab tab-1 on https://a.example (page 3)',
    origin: 'https://a.example',
    grantable: false,
    untilNavigation: true,
  };

  it('is the outcome when a UI approver gives it to a request that offered it', async () => {
    const asked: ApproverQuestion[] = [];
    broker.registerApprover(
      uiApprover((question) => {
        asked.push(question);
        return Promise.resolve('allow-until-navigation');
      }),
    );
    expect(await broker.request(ATTACH, toolCall())).toEqual({
      decision: 'allowed',
      requestId: expect.stringMatching(APPROVAL_ID),
      by: 'ui',
      lasts: 'until-navigation',
    });
    expect(asked[0]!.request.untilNavigation).toBe(true);
  });

  it('is a refusal from a UI approver when the request did not offer it', async () => {
    broker.registerApprover(uiApprover(() => Promise.resolve('allow-until-navigation')));
    const { untilNavigation: _offered, ...once } = ATTACH;
    expect(await broker.request(once, toolCall())).toMatchObject({ decision: 'denied', by: 'ui' });
  });

  it('turns an unknown answer into a refusal, never a longer allowance', async () => {
    broker.registerApprover(
      uiApprover(() => Promise.resolve('until-navigation' as unknown as 'allow-until-navigation')),
    );
    expect(await broker.request(ATTACH, toolCall())).toMatchObject({ decision: 'denied' });
  });

  it('is offered through elicitation only when asked for, and an unoffered answer denies', async () => {
    const elicit = vi.fn((_message: string, _options?: { offerUntilNavigation?: boolean }) =>
      Promise.resolve<ElicitationAnswer>('accept-until-navigation'),
    );
    expect(await broker.request(ATTACH, toolCall(elicit))).toMatchObject({
      decision: 'allowed',
      by: 'elicitation',
      lasts: 'until-navigation',
    });
    expect(elicit.mock.calls[0]![1]).toEqual({ offerUntilNavigation: true });
    expect(await broker.request(OPEN, toolCall(elicit))).toMatchObject({ decision: 'denied' });
    expect(elicit.mock.calls[1]).toHaveLength(1);
  });

  it('plain "accept" stays once: no lasts in the outcome', async () => {
    const elicit = vi.fn(() => Promise.resolve<ElicitationAnswer>('accept'));
    const outcome = await broker.request(ATTACH, toolCall(elicit));
    expect(outcome).toMatchObject({ decision: 'allowed' });
    expect(outcome).not.toHaveProperty('lasts');
  });

  it('is a terminal answer for a waiting request that offered it, and refused for one that did not', async () => {
    const { requestId } = await broker.request(ATTACH, toolCall());
    expect(broker.list()).toMatchObject([{ id: requestId, untilNavigation: true, status: 'waiting' }]);
    expect(broker.decide(requestId, 'allow-until-navigation')).toMatchObject({ lasts: 'until-navigation' });
    expect(await broker.request(ATTACH, toolCall())).toMatchObject({
      decision: 'allowed',
      by: 'terminal',
      lasts: 'until-navigation',
    });
    const { requestId: openId } = await broker.request(OPEN, toolCall());
    expect(() => broker.decide(openId, 'allow-until-navigation')).toThrow(UntilNavigationNotOfferedError);
    expect(broker.list()).toMatchObject([{ id: openId, status: 'waiting' }]);
  });

  it('refuses a request whose untilNavigation is not a boolean', async () => {
    const ask = vi.fn(() => Promise.resolve<'allow-until-navigation'>('allow-until-navigation'));
    broker.registerApprover(uiApprover(ask));
    const bad = { ...ATTACH, untilNavigation: 'yes' } as unknown as ApprovalRequest;
    expect(await broker.request(bad, toolCall())).toMatchObject({ decision: 'denied' });
    expect(ask).not.toHaveBeenCalled();
  });
});
