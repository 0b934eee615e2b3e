import { ApprovalsToken } from '@vmark/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PageReader } from '../src/reader/page-reader.js';
import type { BrowserTab } from '../src/tabs/browser-tab.js';
import { RunRegistry } from '../src/workflow/run-registry.js';
import type { RunStatusReport } from '../src/workflow/workflow-run.js';
import { type Rig, startRig } from './browser-rig.js';
import { HOST_RULES } from './fixture-server.js';
import { type PageServer, startPageServer } from './page-server.js';
import { type PersonDesk, personAt } from './person-desk.js';
import { serveWorkflowPages } from './workflow-fixtures.js';

/*
 * The run registry with the parts a test must reach and the MCP surface rightly never offers:
 * the running-time clock (moved on by the test instead of a two-minute wait) and the pause a
 * person taking a tab over causes (`pauseRunsOnTab`, wired to the tab lease by the plugin).
 * Real Chromium (one for the file), real broker, fixture pages on 127.0.0.1.
 */

let rig: Rig;
let server: PageServer;
let person: PersonDesk;
let runs: RunRegistry;
/** What the test adds to the clock the runs read. */
let skipped = 0;

beforeAll(async () => {
  server = await startPageServer();
  serveWorkflowPages(server);
  rig = await startRig({ allowPrivateNetwork: true, hostRules: HOST_RULES });
  person = personAt(rig.kit);
  runs = new RunRegistry({
    navigator: rig.navigator,
    reader: new PageReader({ list: () => [] }),
    approvals: rig.kit.host.container.get(ApprovalsToken),
    now: () => Date.now() + skipped,
    approvalPollMs: 20,
  });
}, 60_000);

afterAll(async () => {
  runs?.dispose();
  person?.dispose();
  await rig?.dispose();
  await server?.close();
});

beforeEach(() => {
  person.reset();
  skipped = 0;
});

const at = (route: string) => `http://a.test:${server.port}${route}`;

async function tabAt(route: string): Promise<BrowserTab> {
  const tab = await rig.open();
  await rig.navigator.navigate(tab, at(route), 9000, rig.call);
  return tab;
}

const workflow = (...steps: string[]) =>
  `---\nsite: test\n---\n${steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}\n`;

async function until(runId: string, done: (s: RunStatusReport) => boolean): Promise<RunStatusReport> {
  for (;;) {
    const now = runs.status(runId);
    if (done(now)) return now;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const wait = (check: () => boolean) =>
  (async () => {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
  })();

describe('the running-time budget', () => {
  it('pauses the run with `deadline` once 120 s of running time are spent; the next step never runs', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.route('/held', (_req, res) => {
      void released.then(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<title>Held</title><p>at last');
      });
    });
    const tab = await tabAt('/shop');
    const { runId } = runs.start(
      () => tab,
      { source: workflow(`action: navigate to ${at('/held')}`, `action: navigate to ${at('/after')}`) },
      rig.call,
    );
    await wait(() => server.count('/held') === 1);
    skipped = 121_000; // two minutes go by while the page loads
    release();
    const paused = await until(runId, (s) => s.status !== 'running');
    expect(paused).toMatchObject({
      status: 'paused',
      reasonCode: 'deadline',
      reason: "the run's running-time budget is spent",
      pausedAt: 'step-2',
      completedSteps: 1,
    });
    expect(server.count('/after')).toBe(0);
    await rig.registry.close(tab);
  });

  it('stops while a prompt is open: ten minutes waiting for a person spend none of it', async () => {
    const tab = await tabAt('/shop');
    person.answer = 'nobody';
    const { runId } = runs.start(
      () => tab,
      { source: workflow('action: click "Buy" (button)', 'extract: content') },
      rig.call,
    );
    await until(runId, (s) => s.pendingApproval !== undefined && person.waiting().length === 1);
    skipped = 10 * 60_000;
    person.decide(person.waiting()[0]!, 'allow');
    expect(await until(runId, (s) => s.status !== 'running')).toMatchObject({
      status: 'completed',
      completedSteps: 2,
    });
    await rig.registry.close(tab);
  });
});

describe('a person taking the tab over', () => {
  it('pauses its run with `lease-lost` at once, and withdraws the prompt it waited on', async () => {
    const tab = await tabAt('/shop');
    person.answer = 'nobody';
    const source = workflow('action: click "Buy" (button)', `action: navigate to ${at('/after')}`);
    const { runId } = runs.start(() => tab, { source }, rig.call);
    await until(runId, (s) => s.pendingApproval !== undefined && person.waiting().length === 1);
    expect(runs.pauseRunsOnTab(tab.id, 'lease-lost')).toEqual([runId]);
    const paused = runs.status(runId);
    expect(paused).toMatchObject({ status: 'paused', reasonCode: 'lease-lost', pausedAt: 'step-1' });
    expect(paused.pendingApproval).toBeUndefined();
    expect(person.waiting()).toEqual([]);
    expect(server.count('/after')).toBe(0);
    expect(runs.pauseRunsOnTab(tab.id, 'lease-lost')).toEqual([]);
    // A resume takes the step up again: unlike a needs-human pause, nobody was asked to do it.
    person.answer = 'allow';
    const resumed = runs.start(() => tab, { source, resumeRunId: runId }, rig.call);
    expect(resumed.firstStep).toBe('step-1');
    expect(await until(resumed.runId, (s) => s.status !== 'running')).toMatchObject({
      status: 'completed',
      completedSteps: 2,
    });
    expect(server.count('/after')).toBe(1);
    await rig.registry.close(tab);
  });

  it('a tab closed under a running run fails it, and its prompt is withdrawn', async () => {
    const tab = await tabAt('/shop');
    person.answer = 'nobody';
    const { runId } = runs.start(() => tab, { source: workflow('action: click "Buy" (button)') }, rig.call);
    await until(runId, () => person.waiting().length === 1);
    await rig.registry.close(tab);
    expect(await until(runId, (s) => s.status !== 'running')).toMatchObject({
      status: 'failed',
      reasonCode: 'internal',
    });
    expect(person.waiting()).toEqual([]);
  });
});
