import type { ApprovalRequest, ToolCall } from '@vmark/sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApprovalBroker, MAX_WAITING, MAX_WAITING_PER_CONNECTION } from '../../approvals/approval-broker.js';
import type { PanelMessage, UiApprovalAsk } from '../../protocol/panel-protocol.js';
import { UiApprovals } from './approval-service.js';

const OPEN: ApprovalRequest = { operation: 'open_workspace', subject: '/home/me/notes', grantable: false };
const NAVIGATE: ApprovalRequest = {
  operation: 'navigate',
  subject: 'https://a.example/x',
  origin: 'https://a.example',
  grantable: true,
};

function toolCall(controller = new AbortController(), connectionId = 'conn-1'): ToolCall {
  return {
    tool: 'workspace',
    action: 'open_workspace',
    caller: { connectionId, clientName: 'test-client', clientVersion: '1.0.0', principal: null },
    signal: controller.signal,
    progress: () => undefined,
  };
}

/** A call of another client connection of the same host. */
const callOf = (connectionId: string) => toolCall(new AbortController(), connectionId);

/** A window: what it was told, in order. */
function window(): {
  messages: PanelMessage[];
  sink: (message: PanelMessage) => void;
  asks: () => UiApprovalAsk[];
} {
  const messages: PanelMessage[] = [];
  return {
    messages,
    sink: (message) => messages.push(message),
    asks: () => messages.flatMap((m) => (m.type === 'approval.ask' ? [m.ask] : [])),
  };
}

/** Lets the broker reach the approver's ask (it awaits before asking). */
async function asked(w: ReturnType<typeof window>, count = 1): Promise<UiApprovalAsk[]> {
  await expect.poll(() => w.asks().length).toBeGreaterThanOrEqual(count);
  return w.asks();
}

let broker: ApprovalBroker;
let ui: UiApprovals;

beforeEach(() => {
  broker = new ApprovalBroker();
  ui = new UiApprovals(broker);
});

describe('the UI approver', () => {
  it('is not asked while no window is attached', async () => {
    expect(await broker.request(OPEN, toolCall())).toMatchObject({ decision: 'pending' });
  });

  it('asks every window, naming the request, and the first answer decides the call', async () => {
    const [a, b] = [window(), window()];
    ui.attach(a.sink);
    ui.attach(b.sink);
    const outcome = broker.request(OPEN, toolCall());
    const [ask] = await asked(a);
    expect(ask).toMatchObject({
      operation: 'open_workspace',
      subject: '/home/me/notes',
      grantable: false,
      client: { connectionId: 'conn-1', name: 'test-client', version: '1.0.0', principal: null },
    });
    expect(ask!.requestId).toMatch(/^apr-/);
    expect(b.asks()).toEqual([ask]);
    ui.answer(ask!.askId, 'allow');
    expect(await outcome).toMatchObject({ decision: 'allowed', by: 'ui' });
    for (const w of [a, b])
      expect(w.messages.at(-1)).toEqual({ type: 'approval.settled', askId: ask!.askId });
    // Answered: a second answer (another window, late) is refused.
    expect(() => ui.answer(ask!.askId, 'deny')).toThrow(/no longer open/);
  });

  it('refuses a standing grant where none was offered, and keeps the question open', async () => {
    const w = window();
    ui.attach(w.sink);
    const outcome = broker.request(OPEN, toolCall());
    const [ask] = await asked(w);
    expect(() => ui.answer(ask!.askId, 'allow-site')).toThrow(/not offered/);
    expect(() => ui.answer('ask-unknown', 'allow')).toThrow(/no longer open/);
    ui.answer(ask!.askId, 'deny');
    expect(await outcome).toMatchObject({ decision: 'denied', by: 'ui' });
  });

  it('gives a standing grant for a grantable request with an origin', async () => {
    const w = window();
    ui.attach(w.sink);
    const outcome = broker.request(NAVIGATE, toolCall());
    const [ask] = await asked(w);
    ui.answer(ask!.askId, 'allow-site');
    expect(await outcome).toMatchObject({ decision: 'allowed' });
    expect(await broker.request({ ...NAVIGATE, subject: 'https://a.example/y' }, toolCall())).toMatchObject({
      decision: 'allowed',
    });
    expect(w.asks()).toHaveLength(1);
  });

  it('offers "Allow until navigation" only to a request that asks for it', async () => {
    const w = window();
    ui.attach(w.sink);
    const attach: ApprovalRequest = {
      operation: 'attach',
      subject: 'let the AI read and act in your tab tab-1 on https://a.example (page 1)',
      origin: 'https://a.example',
      grantable: false,
      untilNavigation: true,
    };
    const plain = broker.request(OPEN, toolCall());
    const [openAsk] = await asked(w);
    expect(openAsk).not.toHaveProperty('untilNavigation');
    expect(() => ui.answer(openAsk!.askId, 'allow-until-navigation')).toThrow(/not offered/);
    ui.answer(openAsk!.askId, 'deny');
    expect(await plain).toMatchObject({ decision: 'denied' });
    const outcome = broker.request(attach, toolCall());
    const [, ask] = await asked(w, 2);
    expect(ask).toMatchObject({ operation: 'attach', untilNavigation: true, grantable: false });
    ui.answer(ask!.askId, 'allow-until-navigation');
    expect(await outcome).toMatchObject({ decision: 'allowed', by: 'ui', lasts: 'until-navigation' });
  });

  it('withdraws its questions when the last window goes: the request waits, never allowed', async () => {
    const [a, b] = [window(), window()];
    const first = ui.attach(a.sink);
    const second = ui.attach(b.sink);
    const outcome = broker.request(OPEN, toolCall());
    const [ask] = await asked(a);
    first.dispose();
    // Another window still shows it.
    expect(b.messages.some((m) => m.type === 'approval.settled')).toBe(false);
    second.dispose();
    expect(await outcome).toMatchObject({ decision: 'pending', requestId: ask!.requestId });
    expect(broker.list()).toMatchObject([{ id: ask!.requestId, status: 'waiting' }]);
    // No window: the approver is gone until one attaches again.
    expect(await broker.request({ ...OPEN, subject: '/other' }, toolCall())).toMatchObject({
      decision: 'pending',
    });
  });

  it('shows a window that attaches the questions already open', async () => {
    const a = window();
    ui.attach(a.sink);
    const outcome = broker.request(OPEN, toolCall());
    const [ask] = await asked(a);
    const late = window();
    ui.attach(late.sink);
    expect(late.asks()).toEqual([ask]);
    ui.answer(ask!.askId, 'deny');
    await outcome;
  });

  it('withdraws the dialog of a cancelled call', async () => {
    const w = window();
    ui.attach(w.sink);
    const controller = new AbortController();
    const outcome = broker.request(OPEN, toolCall(controller));
    const [ask] = await asked(w);
    controller.abort();
    expect(await outcome).toMatchObject({ decision: 'pending' });
    expect(w.messages.at(-1)).toEqual({ type: 'approval.settled', askId: ask!.askId });
    expect(() => ui.answer(ask!.askId, 'allow')).toThrow(/no longer open/);
  });

  it('shows identical requests as one dialog whose answer decides them all', async () => {
    const w = window();
    ui.attach(w.sink);
    const one = broker.request(OPEN, toolCall());
    await asked(w);
    const two = broker.request(OPEN, toolCall());
    expect(w.asks()).toHaveLength(1);
    ui.answer(w.asks()[0]!.askId, 'allow');
    expect(await one).toMatchObject({ decision: 'allowed' });
    expect(await two).toMatchObject({ decision: 'allowed' });
  });

  it('shows the identical requests of two connections as two dialogs, each deciding its own call', async () => {
    const w = window();
    ui.attach(w.sink);
    const fromA = broker.request(OPEN, toolCall());
    const fromB = broker.request(
      { ...OPEN, requested: '/home/me/link', warning: 'nothing exists at this path.' },
      {
        ...callOf('conn-2'),
        caller: {
          connectionId: 'conn-2',
          clientName: 'claude-code',
          clientVersion: '2',
          principal: 'laptop',
        },
      },
    );
    const [a, b] = await asked(w, 2);
    expect(a!.client.connectionId).toBe('conn-1');
    expect(b).toMatchObject({
      requested: '/home/me/link',
      warning: 'nothing exists at this path.',
      client: { connectionId: 'conn-2', name: 'claude-code', principal: 'laptop' },
    });
    expect(a!.requestId).not.toBe(b!.requestId);
    ui.answer(a!.askId, 'allow');
    expect(await fromA).toMatchObject({ decision: 'allowed', by: 'ui' });
    ui.answer(b!.askId, 'deny');
    expect(await fromB).toMatchObject({ decision: 'denied', by: 'ui' });
  });

  it(`keeps at most ${MAX_WAITING} dialogs open, ${MAX_WAITING_PER_CONNECTION} per connection; past that, requests wait for the terminal`, async () => {
    const w = window();
    ui.attach(w.sink);
    const outcomes = Array.from({ length: MAX_WAITING }, (_, i) =>
      broker.request(
        { ...OPEN, subject: `/w/${i}` },
        callOf(i < MAX_WAITING_PER_CONNECTION ? 'conn-1' : 'conn-2'),
      ),
    );
    await asked(w, MAX_WAITING);
    expect(await broker.request({ ...OPEN, subject: '/w/more' }, callOf('conn-3'))).toMatchObject({
      decision: 'pending',
    });
    for (const ask of w.asks()) ui.answer(ask.askId, 'deny');
    for (const outcome of await Promise.all(outcomes)) expect(outcome.decision).toBe('denied');
  });

  it('lets one connection fill only its share of the dialogs', async () => {
    const w = window();
    ui.attach(w.sink);
    const outcomes = Array.from({ length: MAX_WAITING_PER_CONNECTION }, (_, i) =>
      broker.request({ ...OPEN, subject: `/loop/${i}` }, toolCall()),
    );
    await asked(w, MAX_WAITING_PER_CONNECTION);
    expect(await broker.request({ ...OPEN, subject: '/loop/more' }, toolCall())).toMatchObject({
      decision: 'pending',
    });
    const other = broker.request(OPEN, callOf('conn-2'));
    await asked(w, MAX_WAITING_PER_CONNECTION + 1);
    for (const ask of w.asks()) ui.answer(ask.askId, 'deny');
    expect(await other).toMatchObject({ decision: 'denied', by: 'ui' });
    for (const outcome of await Promise.all(outcomes)) expect(outcome.decision).toBe('denied');
  });

  it('withdraws everything when disposed', async () => {
    const w = window();
    ui.attach(w.sink);
    const outcome = broker.request(OPEN, toolCall());
    await asked(w);
    ui.dispose();
    expect(await outcome).toMatchObject({ decision: 'pending' });
  });
});
