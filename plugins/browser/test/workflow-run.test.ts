import { ApprovalsToken, SettingsToken } from '@vmark/sdk';
import type { TestHost, ToolOutcome } from '@vmark/sdk/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PageServer, startPageServer } from './page-server.js';
import { type PersonDesk, startHostWithPerson } from './person-desk.js';
import { serveWorkflowPages, submissions } from './workflow-fixtures.js';

/*
 * `workflow_run`, `workflow_status` and `workflow_cancel` as an MCP client sees them (issue 16):
 * the browser plugin in a real host (one Chromium for the file), fixture sites on 127.0.0.1
 * under the name a.test, and the host's real approval broker with the test as the person at
 * the editor (person-desk.ts), answering each step's prompt as it would a hand-issued act's.
 */

let kit: TestHost;
let server: PageServer;
let person: PersonDesk;
let dispose: (() => Promise<void>) | undefined;

beforeAll(async () => {
  server = await startPageServer();
  serveWorkflowPages(server);
  ({ kit, person, dispose } = await startHostWithPerson());
}, 60_000);

afterAll(async () => {
  await dispose?.();
  await server?.close();
});

beforeEach(() => person.reset());

const at = (route: string) => `http://a.test:${server.port}${route}`;

interface Status {
  runId: string;
  status: string;
  stepCount: number;
  firstStep: string | null;
  completedSteps: number;
  skippedSteps: number;
  pausedAt?: string;
  reasonCode?: string;
  reason?: string;
  pendingApproval?: { operation: string; url: string; target?: string };
  resumedFrom?: string;
  stepResults: {
    index: number;
    status: string;
    attempts: number;
    reason?: string;
    data?: Record<string, unknown>;
  }[];
  url: string;
}

async function open(route: string): Promise<string> {
  const opened = await kit.call('browser', { action: 'open', url: at(route) });
  expect(opened.isError, opened.text).toBe(false);
  return (opened.data as { tabId: string }).tabId;
}

const close = (tabId: string) => kit.call('browser', { action: 'close', tabId });

const run = (tabId: string, source: string, extra: Record<string, unknown> = {}) =>
  kit.call('browser', { action: 'workflow_run', tabId, source, ...extra });

async function started(tabId: string, source: string, extra: Record<string, unknown> = {}) {
  const out = await run(tabId, source, extra);
  expect(out.isError, out.text).toBe(false);
  return out.data as { runId: string; steps: number; firstStep: string | null; status: string };
}

async function status(runId: string): Promise<Status> {
  const out = await kit.call('browser_read', { action: 'workflow_status', runId });
  expect(out.isError, out.text).toBe(false);
  return out.data as Status;
}

/** Polls the run's status (as a client does) until `done` holds. */
async function until(runId: string, done: (s: Status) => boolean): Promise<Status> {
  for (;;) {
    const now = await status(runId);
    if (done(now)) return now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const settled = (runId: string) => until(runId, (s) => s.status !== 'running');

/**
 * Waits for the fixture server to have been asked for something: a click's form POST may
 * reach it after the act has answered (the act watches the page a bounded while).
 */
async function served(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The page's #log, where the fixture buttons note their clicks. */
async function log(tabId: string): Promise<string> {
  const out = await kit.call('browser_read', { action: 'query', tabId, selector: '#log' });
  return (out.data as { elements: { text: string }[] }).elements[0]?.text ?? '';
}

const workflow = (inputs: string, ...steps: string[]) =>
  `---\nsite: test\ninputs: [${inputs}]\n---\n${steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}\n`;

function refusal(out: ToolOutcome): { error?: string; message?: string } {
  expect(out.isError).toBe(true);
  return out.structured ?? {};
}

describe('a multi-page form', () => {
  const source = () =>
    workflow(
      'name, email',
      `action: navigate to ${at('/form/1')}`,
      'action: type {name} into "Name" (textbox)',
      'action: click "Next" (button)',
      'action: type {email} into "Email" (textbox)',
      'action: click "Submit" (button)',
      'extract: content',
      'confirm: check the receipt',
    );
  const inputs = { name: 'Ada Lovelace', email: 'ada@example.com' };

  it('is submitted once, even when the run is re-run after its pause; allowRepeat submits again', async () => {
    const tabId = await open('/form/1');
    const first = await started(tabId, source(), { inputs });
    expect(first).toEqual({
      runId: expect.stringMatching(/^wfrun-tab-\d+-\d+$/),
      steps: 7,
      firstStep: 'step-1',
      status: 'running',
    });
    expect(first.runId.startsWith(`wfrun-${tabId}-`)).toBe(true);
    const paused = await settled(first.runId);
    expect(paused).toMatchObject({
      status: 'paused',
      reasonCode: 'needs-human',
      pausedAt: 'step-7',
      stepCount: 7,
      completedSteps: 6,
      skippedSteps: 0,
    });
    expect(paused.stepResults[5]).toMatchObject({ index: 6, status: 'success' });
    await served(() => submissions(server) >= 1);
    expect(submissions(server)).toBe(1);
    // Each deterministic write step was approved like a hand-issued act: two types, two clicks.
    expect(person.asked.map((q) => q.request.operation)).toEqual(['type', 'click', 'type', 'click']);
    expect(person.asked[0]!.request.subject).toContain('Ada Lovelace');

    // The same source and inputs again: the writes already done are skipped, the read re-runs.
    const again = await started(tabId, source(), { inputs });
    expect(again.firstStep).toBe('step-6');
    const second = await settled(again.runId);
    expect(second).toMatchObject({
      status: 'paused',
      pausedAt: 'step-7',
      completedSteps: 1,
      skippedSteps: 5,
    });
    expect(second.stepResults.slice(0, 5).every((r) => r.status === 'skipped')).toBe(true);
    expect(submissions(server)).toBe(1);
    expect(person.asked).toHaveLength(4);

    // allowRepeat: the writes are done again.
    const repeat = await started(tabId, source(), { inputs, allowRepeat: true });
    expect(repeat.firstStep).toBe('step-1');
    expect(await settled(repeat.runId)).toMatchObject({
      status: 'paused',
      pausedAt: 'step-7',
      completedSteps: 6,
    });
    await served(() => submissions(server) >= 2);
    expect(submissions(server)).toBe(2);
    await close(tabId);
  });
});

describe('a login page', () => {
  const source = () =>
    workflow(
      'user',
      `action: navigate to ${at('/login')}`,
      'action: type {user} into "Username" (textbox)',
      'confirm: enter "Password"',
      'action: click "Sign in" (button)',
    );

  it('pauses at the password confirm: step, and a resume goes on from there as done by the person', async () => {
    const tabId = await open('/login');
    const { runId } = await started(tabId, source(), { inputs: { user: 'ada' } });
    const paused = await settled(runId);
    expect(paused).toMatchObject({
      status: 'paused',
      reasonCode: 'needs-human',
      pausedAt: 'step-3',
      completedSteps: 2,
    });
    expect(paused.stepResults[2]).toMatchObject({ index: 3, status: 'failed', attempts: 0 });
    expect(server.hits.some((hit) => hit.path === '/signed-in')).toBe(false);
    expect(person.asked.map((q) => q.request.operation)).toEqual(['type']);

    const resumed = await started(tabId, source(), { inputs: { user: 'ada' }, resumeRunId: runId });
    expect(resumed.firstStep).toBe('step-4');
    const done = await settled(resumed.runId);
    expect(done).toMatchObject({
      status: 'completed',
      resumedFrom: runId,
      completedSteps: 1,
      skippedSteps: 3,
    });
    expect(done.stepResults[2]).toMatchObject({ status: 'skipped', reason: 'done by the person' });
    await served(() => server.hits.some((hit) => hit.path === '/signed-in'));
    expect(server.hits.filter((hit) => hit.path === '/signed-in')).toHaveLength(1);
    expect(await status(runId)).toMatchObject({
      status: 'superseded',
      reasonCode: 'superseded',
      reason: `resumed by ${resumed.runId}`,
    });
    await close(tabId);
  });
});

describe('the safety core', () => {
  it('retries an obscured target up to the cap, then stops and asks (nothing was clicked)', async () => {
    const tabId = await open('/overlay');
    const { runId } = await started(
      tabId,
      workflow('', `action: navigate to ${at('/overlay')}`, 'action: click "Buy now" (button)'),
    );
    const paused = await settled(runId);
    expect(paused).toMatchObject({ status: 'paused', reasonCode: 'retries-exhausted', pausedAt: 'step-2' });
    expect(paused.stepResults[1]).toMatchObject({ status: 'failed', attempts: 3 });
    expect(paused.stepResults[1]!.reason).toMatch(/^obscured \(covered by div\.cmp-overlay/);
    expect(await log(tabId)).toBe('');
    expect(person.asked).toHaveLength(0);
    await close(tabId);
  });

  it('stops and asks at an ambiguous target, without a retry', async () => {
    const tabId = await open('/two-deletes');
    const { runId } = await started(tabId, workflow('', 'action: click "Delete" (button)'));
    const paused = await settled(runId);
    expect(paused).toMatchObject({ status: 'paused', reasonCode: 'needs-human', pausedAt: 'step-1' });
    expect(paused.stepResults[0]).toMatchObject({ status: 'failed', attempts: 1, reason: 'ambiguous' });
    expect(await log(tabId)).toBe('');
    await close(tabId);
  });

  it('pauses for goal, api and free-text action steps (needs-human), and runs nothing after them', async () => {
    const tabId = await open('/shop');
    for (const step of ['goal: buy something nice', 'api: POST /orders', 'action: click Buy and pay']) {
      const { runId } = await started(tabId, workflow('', step, 'action: click "Buy" (button)'));
      expect(await settled(runId)).toMatchObject({
        status: 'paused',
        reasonCode: 'needs-human',
        pausedAt: 'step-1',
      });
    }
    expect(await log(tabId)).toBe('');
    expect(person.asked).toHaveLength(0);
    await close(tabId);
  });

  it('pauses at a type step whose {input} the workflow does not declare ({constructor} included)', async () => {
    const tabId = await open('/form/1');
    for (const name of ['nickname', 'constructor']) {
      const { runId } = await started(tabId, workflow('', `action: type {${name}} into "Name" (textbox)`));
      const paused = await settled(runId);
      expect(paused).toMatchObject({ status: 'paused', reasonCode: 'needs-human', pausedAt: 'step-1' });
      expect(paused.reason).toBe(`step-1 types {${name}}, which the workflow does not declare`);
    }
    expect(person.asked).toHaveLength(0);
    await close(tabId);
  });

  it('pauses when the person declines a step: nothing is done, nothing retried', async () => {
    const tabId = await open('/shop');
    person.answer = 'deny';
    const { runId } = await started(tabId, workflow('', 'action: click "Buy" (button)', 'extract: content'));
    const paused = await settled(runId);
    expect(paused).toMatchObject({ status: 'paused', reasonCode: 'needs-human', pausedAt: 'step-1' });
    expect(paused.reason).toMatch(/declined 'click'/);
    expect(paused.stepResults).toHaveLength(1);
    expect(person.asked).toHaveLength(1);
    expect(await log(tabId)).toBe('');
    await close(tabId);
  });
});

describe('a step declined mid-run', () => {
  it('pauses after the steps done so far: the first click stays done, the declined one is not retried', async () => {
    const tabId = await open('/shop');
    person.answer = 'hold';
    const { runId } = await started(
      tabId,
      workflow('', 'action: click "Buy" (button)', 'action: click "Buy" (button)', 'extract: content'),
    );
    await until(runId, (s) => s.pendingApproval !== undefined);
    person.answerHeld('allow');
    // The second step asks in turn; the person declines it.
    await until(runId, (s) => s.completedSteps === 1 && s.pendingApproval !== undefined);
    person.answerHeld('deny');
    const paused = await settled(runId);
    expect(paused).toMatchObject({
      status: 'paused',
      reasonCode: 'needs-human',
      pausedAt: 'step-2',
      completedSteps: 1,
    });
    expect(paused.reason).toMatch(/declined 'click'/);
    expect(paused.stepResults.map((r) => [r.index, r.status, r.attempts])).toEqual([
      [1, 'success', 1],
      // Declined before anything was pressed: no attempt was made.
      [2, 'failed', 0],
    ]);
    expect(person.asked.map((q) => q.request.operation)).toEqual(['click', 'click']);
    expect(await log(tabId)).toBe('buy;');
    await close(tabId);
  });
});

describe('prompts of a run', () => {
  it('show as pendingApproval while open; a cancel withdraws the dialog and frees the tab', async () => {
    const tabId = await open('/shop');
    person.answer = 'hold';
    const { runId } = await started(tabId, workflow('', 'action: click "Buy" (button)'));
    const waiting = await until(runId, (s) => s.pendingApproval !== undefined);
    expect(waiting).toMatchObject({
      status: 'running',
      pendingApproval: { operation: 'click', url: `http://a.test:${server.port}`, target: 'button "Buy"' },
    });
    const busy = refusal(await run(tabId, workflow('', 'extract: content')));
    expect(busy).toMatchObject({
      error: 'WORKFLOW_RUNNING',
      message: 'a workflow is already running on this tab',
    });

    const cancelled = await kit.call('browser', { action: 'workflow_cancel', runId });
    expect(cancelled.data).toEqual({ runId, status: 'cancelled', result: 'cancelled' });
    expect(person.withdrawn).toHaveLength(1);
    const after = await status(runId);
    expect(after).toMatchObject({ status: 'cancelled', reasonCode: 'cancelled' });
    expect(after.pendingApproval).toBeUndefined();
    expect(person.waiting()).toEqual([]);
    expect((await kit.call('browser', { action: 'workflow_cancel', runId })).data).toEqual({
      runId,
      status: 'cancelled',
      result: 'already-terminal',
    });
    // The tab is free again.
    person.answer = 'allow';
    const next = await started(tabId, workflow('', 'extract: content'));
    expect(await settled(next.runId)).toMatchObject({ status: 'completed' });
    expect(await log(tabId)).toBe('');
    await close(tabId);
  });

  it('wait for `vmark approvals` when no window can ask, and are withdrawn from its list when the run ends', async () => {
    const tabId = await open('/shop');
    person.answer = 'nobody';
    const { runId } = await started(
      tabId,
      workflow('', 'action: click "Buy" (button)', 'action: click "Buy" (button)'),
    );
    const waiting = await until(
      runId,
      (s) => s.pendingApproval !== undefined && person.waiting().length === 1,
    );
    expect(waiting.pendingApproval).toMatchObject({ operation: 'click' });
    // The terminal allows the first; the second asks again, and the run is cancelled while it waits.
    person.decide(person.waiting()[0]!, 'allow');
    await until(runId, (s) => s.completedSteps === 1 && s.pendingApproval !== undefined);
    expect(await log(tabId)).toBe('buy;');
    await until(runId, () => person.waiting().length === 1);
    await kit.call('browser', { action: 'workflow_cancel', runId });
    expect(person.waiting()).toEqual([]);
    expect(await log(tabId)).toBe('buy;');
    await close(tabId);
  });
});

describe('resume refusals (each changes nothing)', () => {
  it('RUN_NOT_FOUND, RESUME_NOT_PAUSED, RESUME_TAB_MISMATCH, RESUME_SOURCE_MISMATCH', async () => {
    const tabId = await open('/shop');
    const other = await open('/shop');
    const source = workflow('', 'confirm: look at the shop');
    const { runId: paused } = await started(tabId, source);
    await settled(paused);
    const { runId: completed } = await started(tabId, workflow('', 'extract: content'));
    await settled(completed);

    expect(refusal(await run(tabId, source, { resumeRunId: 'wfrun-tab-99-99' })).error).toBe('RUN_NOT_FOUND');
    expect(
      refusal(await run(tabId, workflow('', 'extract: content'), { resumeRunId: completed })).error,
    ).toBe('RESUME_NOT_PAUSED');
    expect(refusal(await run(other, source, { resumeRunId: paused })).error).toBe('RESUME_TAB_MISMATCH');
    expect(
      refusal(await run(tabId, workflow('', 'confirm: look elsewhere'), { resumeRunId: paused })).error,
    ).toBe('RESUME_SOURCE_MISMATCH');
    expect(await status(paused)).toMatchObject({ status: 'paused', pausedAt: 'step-1' });
    await close(other);
    await close(tabId);
  });
});

describe('limits and bad input (each changes nothing)', () => {
  it('are refused with the original messages before a run starts', async () => {
    const tabId = await open('/shop');
    const before = await started(tabId, workflow('', 'extract: content'));
    await settled(before.runId);
    const hits = server.hits.length;
    const steps = (n: number) => Array.from({ length: n }, () => 'extract: content');
    const cases: [string, Record<string, unknown>, string][] = [
      [workflow('', ...steps(26)), {}, 'too many steps (max 25)'],
      [workflow('', 'extract: content') + `# ${'x'.repeat(64 * 1024)}\n`, {}, 'workflow source is too large'],
      [workflow('q', 'extract: content'), {}, 'missing input "q"'],
      [workflow('q', 'extract: content'), { inputs: { q: 'a', r: 'b' } }, 'undeclared input "r"'],
      [
        workflow('q', 'extract: content'),
        { inputs: { q: 'é'.repeat(2049) } },
        'input "q" is too large (max 4096 bytes)',
      ],
      [
        workflow('q', 'extract: content'),
        { inputs: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`i${i}`, 'v'])) },
        'too many inputs (max 64)',
      ],
      ['1. extract: content\n', {}, 'workflow parse failed: missing-front-matter'],
      ['---\nsite: x\n---\n1. fetch: GET /\n', {}, 'workflow parse failed: unknown-step-kind'],
      [
        workflow('', 'extract: content'),
        { inputs: { q: 1 } },
        'inputs must map each input name to a string value',
      ],
      [workflow('', 'extract: content'), { allowRepeat: 'yes' }, 'allowRepeat must be a boolean'],
      ['', {}, 'workflow_run requires a non-empty `source`'],
    ];
    for (const [source, extra, message] of cases) {
      const out = await run(tabId, source, extra);
      expect(out.isError, message).toBe(true);
      expect(out.text).toContain(message);
    }
    expect(refusal(await run('tab-999', workflow('', 'extract: content'))).error).toBe('INVALID_TAB');
    expect(server.hits.length).toBe(hits);
    // No run was made: the next one is numbered right after the last good one.
    const after = await started(tabId, workflow('', 'extract: content'));
    const number = (runId: string) => Number(runId.split('-').at(-1));
    expect(number(after.runId)).toBe(number(before.runId) + 1);
    await settled(after.runId);
    expect(
      refusal(await kit.call('browser_read', { action: 'workflow_status', runId: 'wfrun-x' })).error,
    ).toBe('RUN_NOT_FOUND');
    expect(refusal(await kit.call('browser', { action: 'workflow_cancel', runId: 'wfrun-x' })).error).toBe(
      'RUN_NOT_FOUND',
    );
    await close(tabId);
  });
});

describe('a standing grant', () => {
  it('covers a run’s steps as it covers hand-issued acts: asked once, then allowed on the site', async () => {
    const tabId = await open('/shop');
    person.answer = 'allow-site';
    const { runId } = await started(
      tabId,
      workflow(
        '',
        'action: click "Buy" (button)',
        'action: click "Buy" (button)',
        'action: click "Buy" (button)',
      ),
    );
    expect(await settled(runId)).toMatchObject({ status: 'completed', completedSteps: 3 });
    expect(person.asked.map((q) => q.request.operation)).toEqual(['click']);
    expect(await log(tabId)).toBe('buy;buy;buy;');
    // Left for no later test of this file's host: the grant is taken back.
    (kit.host.container.get(ApprovalsToken) as unknown as { revoke(selector: object): unknown }).revoke({});
    await close(tabId);
  });
});

const settings = () =>
  kit.host.container.get(SettingsToken) as unknown as { set(key: string, value: unknown): Promise<void> };

describe('with the browser turned off in Settings', () => {
  it('a running run is still polled and cancelled, its open prompt withdrawn', async () => {
    const tabId = await open('/shop');
    person.answer = 'hold';
    const { runId } = await started(tabId, workflow('', 'action: click "Buy" (button)'));
    await until(runId, (s) => s.pendingApproval !== undefined);
    await settings().set('browser.enabled', false);
    try {
      const read = await kit.call('browser_read', { action: 'read', tabId });
      expect(read.text).toMatch(/^BROWSER_DISABLED: /);
      expect((await status(runId)).status).toBe('running');
      const cancelled = await kit.call('browser', { action: 'workflow_cancel', runId });
      expect(cancelled.data).toEqual({ runId, status: 'cancelled', result: 'cancelled' });
      expect(person.withdrawn).toHaveLength(1);
      expect(await status(runId)).toMatchObject({ status: 'cancelled' });
    } finally {
      await settings().set('browser.enabled', true);
    }
    expect(await log(tabId)).toBe('');
    await close(tabId);
  });
});

describe('a navigate step in the shared posture', () => {
  it('asks for the new origin as the run’s prompt: shown in the status, withdrawn by a cancel, then allowed', async () => {
    await settings().set('browser.posture', 'shared');
    try {
      const tabId = await open('/shop');
      person.reset();
      const elsewhere = `http://b.test:${server.port}`;
      const source = workflow('', `action: navigate to ${elsewhere}/form/1`, 'extract: content');

      person.answer = 'hold';
      const first = await started(tabId, source);
      const waiting = await until(first.runId, (s) => s.pendingApproval !== undefined);
      // The run waits on the person, its prompt named by the origin alone.
      expect(waiting).toMatchObject({
        status: 'running',
        completedSteps: 0,
        pendingApproval: { operation: 'navigate', url: elsewhere },
      });
      expect(waiting.pendingApproval?.target).toBeUndefined();
      await kit.call('browser', { action: 'workflow_cancel', runId: first.runId });
      expect(person.withdrawn).toHaveLength(1);
      expect((await status(first.runId)).pendingApproval).toBeUndefined();

      person.answer = 'allow';
      const second = await started(tabId, source);
      const done = await settled(second.runId);
      expect(done).toMatchObject({ status: 'completed', completedSteps: 2 });
      expect(done.url).toBe(`${elsewhere}/form/1`);
      expect(person.asked.map((q) => [q.request.operation, q.request.origin])).toEqual([
        ['navigate', elsewhere],
        ['navigate', elsewhere],
      ]);
      await close(tabId);
    } finally {
      await settings().set('browser.posture', 'sandbox');
    }
  });
});
