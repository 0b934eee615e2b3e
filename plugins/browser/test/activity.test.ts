import { describe, expect, it } from 'vitest';
import type { ListedEntry } from '../src/tabs/tab-activity.js';
import { MAX_ENTRIES, MAX_TEXT } from '../src/tabs/tab-activity.js';
import type { ViewMessage } from '../src/view/browser-view-provider.js';
import { personHostForFile } from './person-desk.js';
import { TYPED } from './typed-values.js';
import { serveWorkflowPages } from './workflow-fixtures.js';

/*
 * A tab's activity list (ADR 53, ADR 57) in a real host with the browser plugin and one Chromium:
 * each approval's answer as its own entry (a standing grant saying so), a workflow run's steps and
 * how it ended, the gates met, pictures attached after the entry in order, the bounds, and never a
 * typed value.
 */

const PAGE = `<!doctype html><title>Counter</title>
<button id="add">Add</button><p id="log">count 0</p>
<label>Name <input id="name"></label>
<button id="long">${'Long name '.repeat(200)}</button>
<script>let n = 0; add.onclick = () => { log.textContent = 'count ' + ++n; };</script>`;

const rig = personHostForFile((server) => {
  server.html('/', PAGE);
  server.html('/next', '<!doctype html><title>Next</title><p>next</p>');
  server.fixture('/account/login', 'gates/login.html');
  server.fixture('/gates/challenge-widget', 'gates/challenge-widget.html');
  serveWorkflowPages(server);
});

const views = () => rig.kit.host.plugins.views;
const ask = (method: string, params: unknown) => views().request('browser', 'browser', method, params);
const origin = () => `http://a.test:${rig.server.port}`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function openTab(path = '/'): Promise<string> {
  const opened = await rig.kit.call('browser', { action: 'open', url: `${origin()}${path}` });
  expect(opened.isError, opened.text).toBe(false);
  return (opened.data as { tabId: string }).tabId;
}

const act = (tabId: string, args: Record<string, unknown>) =>
  rig.kit.call('browser', { action: 'act', tabId, ...args });
const clickAdd = (tabId: string) => act(tabId, { operation: 'click', role: 'button', name: 'Add' });

/** The tab's activity once no picture is pending. */
async function settled(tabId: string): Promise<ListedEntry[]> {
  for (;;) {
    const { entries } = (await ask('activity', { tabId })) as { entries: ListedEntry[] };
    if (entries.every((entry) => entry.picture !== 'pending')) return entries;
    await pause(20);
  }
}

const said = (entries: readonly ListedEntry[], kinds: readonly string[]): [string, string][] =>
  entries.filter((entry) => kinds.includes(entry.kind)).map((entry) => [entry.what, entry.outcome]);

describe('the activity list', () => {
  it("notes each approval's answer as its own entry, a standing grant saying so", async () => {
    const tabId = await openTab();
    rig.person.answer = 'allow';
    expect((await clickAdd(tabId)).isError).toBe(false);
    rig.person.answer = 'nobody';
    const asked = await clickAdd(tabId);
    expect(asked.structured).toMatchObject({ needsApproval: true });
    expect((await clickAdd(tabId)).structured).toMatchObject({ needsApproval: true });
    rig.person.answer = 'allow-site';
    expect((await act(tabId, { operation: 'scroll', dy: 200 })).isError).toBe(false);
    const before = rig.person.asked.length;
    expect((await act(tabId, { operation: 'scroll', dy: -200 })).isError).toBe(false);
    // Nobody was asked the second time: the grant answered.
    expect(rig.person.asked).toHaveLength(before);
    rig.person.answer = 'deny';
    expect((await clickAdd(tabId)).structured).toMatchObject({ denied: true });

    const entries = await settled(tabId);
    expect(said(entries, ['approval'])).toEqual([
      ['click button “Add”', 'denied'],
      ['scroll the page', `allowed by your standing grant for ${origin()}`],
      ['scroll the page', 'allowed on this site'],
      // Asked again by the retry, unanswered still: one entry.
      ['click button “Add”', 'asked, not answered yet'],
      ['click button “Add”', 'allowed once'],
    ]);
    expect(said(entries, ['refusal'])).toEqual([
      ['click button “Add”', 'approval denied'],
      ['click button “Add”', 'approval asked, not answered yet'],
      ['click button “Add”', 'approval asked, not answered yet'],
    ]);
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it("notes an answer withdrawn when the person took the tab over, and a person's tab attached until navigation", async () => {
    const tabId = await openTab();
    rig.person.answer = 'hold';
    const acting = clickAdd(tabId);
    while (rig.person.asked.length === 0) await pause(20);
    await ask('input', { tabId, input: { type: 'down', x: 5, y: 5, button: 'left', clickCount: 1 } });
    await ask('input', { tabId, input: { type: 'up', x: 5, y: 5, button: 'left', clickCount: 1 } });
    rig.person.answerHeld('allow');
    expect((await acting).structured).toMatchObject({ error: 'LEASE_LOST' });
    const entries = await settled(tabId);
    // The dialog was answered after the takeover: the answer is noted, then the act's refusal.
    expect(said(entries, ['approval', 'refusal']).slice(0, 2)).toEqual([
      ['click button “Add”', 'LEASE_LOST'],
      ['click button “Add”', 'allowed once'],
    ]);
    await ask('handBack', { tabId });

    rig.person.answer = 'allow-until-navigation';
    const { tabId: own } = (await ask('openTab', { tabId, url: `${origin()}/next` })) as { tabId: string };
    for (;;) {
      const state = (await ask('state', { tabId: own })) as { url: string; loading: boolean };
      if (!state.loading && state.url.endsWith('/next')) break;
      await pause(50);
    }
    const read = await rig.kit.call('browser_read', { action: 'read', tabId: own });
    expect(read.isError, read.text).toBe(false);
    expect(said(await settled(own), ['approval'])).toEqual([
      ['let the AI use your tab', 'allowed until navigation'],
    ]);
    await ask('close', { tabId: own }).catch(() => undefined);
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it("lists a workflow run's steps without its inputs or typed text, and why it paused", async () => {
    const tabId = await openTab('/form/1');
    rig.person.answer = 'allow';
    const source = [
      '---',
      'site: order form',
      'inputs: [name]',
      '---',
      '1. action: type {name} into "Name" (textbox)',
      '2. action: click "Next" (button)',
      `3. action: type "${TYPED.notes}" into "Email" (textbox)`,
      `4. goal: check that the receipt says "${TYPED.bio}"`,
    ].join('\n');
    const started = await rig.kit.call('browser', {
      action: 'workflow_run',
      tabId,
      source,
      inputs: { name: TYPED.name },
    });
    expect(started.isError, started.text).toBe(false);
    const { runId } = started.data as { runId: string };
    for (;;) {
      const status = await rig.kit.call('browser_read', { action: 'workflow_status', runId });
      if ((status.data as { status: string }).status !== 'running') break;
      await pause(50);
    }
    const entries = await settled(tabId);
    const steps = said(entries, ['workflow', 'step']);
    // A form's submission may start after the click's watch (the runner waits for it): either is the click's effect.
    expect(['done: navigation-started', 'done: nothing-observable']).toContain(steps[3]![1]);
    steps[3]![1] = 'done: navigation-started';
    expect(steps).toEqual([
      [`workflow “order form” paused at step-4 (${runId})`, 'needs-human: needs a person'],
      ['step-4: goal: check that the receipt says “…”', 'for a person or the AI to do'],
      ['step-3: type into textbox “Email”', 'done'],
      ['step-2: click button “Next”', 'done: navigation-started'],
      ['step-1: type into textbox “Name”', 'done'],
      [`workflow “order form” started (${runId})`, '4 steps'],
    ]);
    // Each act of the run was approved as a hand-issued act is, and noted so.
    expect(said(entries, ['approval'])).toEqual([
      ['type into textbox “Email”', 'allowed once'],
      ['click button “Next”', 'allowed once'],
      ['type into textbox “Name”', 'allowed once'],
    ]);
    const all = JSON.stringify(entries);
    for (const value of [TYPED.name, TYPED.notes, TYPED.bio]) expect(all).not.toContain(value);
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it('notes a run paused because the person took its tab over, its question withdrawn', async () => {
    const tabId = await openTab();
    rig.person.answer = 'hold';
    const source = '---\nsite: counter\n---\n1. action: click "Add" (button)\n';
    const started = await rig.kit.call('browser', { action: 'workflow_run', tabId, source });
    const { runId } = started.data as { runId: string };
    while (rig.person.asked.length === 0) await pause(20);
    await ask('input', { tabId, input: { type: 'down', x: 5, y: 5, button: 'left', clickCount: 1 } });
    await ask('input', { tabId, input: { type: 'up', x: 5, y: 5, button: 'left', clickCount: 1 } });
    let entries: ListedEntry[] = [];
    const withdrawn = () =>
      said(entries, ['approval']).some(([, outcome]) => outcome.startsWith('withdrawn'));
    while (!withdrawn() || said(entries, ['step']).length === 0) entries = await settled(tabId);
    expect(said(entries, ['workflow'])[0]).toEqual([
      `workflow “counter” paused at step-1 (${runId})`,
      'lease-lost: the person took the tab over',
    ]);
    // The run's question was asked in the dialog, unanswered, then taken back.
    expect(said(entries, ['approval'])).toEqual([
      ['click button “Add”', 'withdrawn: the person took the tab over'],
      ['click button “Add”', 'asked, not answered yet'],
    ]);
    // Refused before any input: nothing was done (not "may or may not have happened").
    expect(said(entries, ['step'])).toEqual([['step-1: click button “Add”', 'failed: LEASE_LOST']]);
    await ask('handBack', { tabId });
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it('notes the gate a navigation met, with the picture of the page that showed it', async () => {
    const tabId = await openTab('/account/login');
    await settled(tabId);
    const went = await rig.kit.call('browser', {
      action: 'navigate',
      tabId,
      url: `${origin()}/gates/challenge-widget`,
    });
    expect(went.data).toMatchObject({ gate: { kind: 'challenge' } });
    await settled(tabId);
    const next = await rig.kit.call('browser', { action: 'navigate', tabId, url: `${origin()}/next` });
    expect(next.data).not.toHaveProperty('gate');
    const entries = await settled(tabId);
    expect(entries.map((entry) => [entry.kind, entry.what, entry.outcome])).toEqual([
      ['navigation', `navigate ${origin()}/next`, 'HTTP 200'],
      ['navigation', `navigate ${origin()}/gates/challenge-widget`, 'HTTP 200, gate: challenge'],
      ['navigation', `open ${origin()}/account/login`, 'HTTP 200, gate: login-required'],
    ]);
    // Each picture was taken before the next page came: each shows the page its entry noted.
    expect(entries.map((entry) => entry.picture)).toEqual(['ready', 'ready', 'ready']);
    const pictures = await Promise.all(
      entries.map(
        async (entry) =>
          ((await ask('activityPicture', { tabId, entryId: entry.id })) as { jpeg: string }).jpeg,
      ),
    );
    expect(new Set(pictures).size).toBe(3);
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it('attaches pictures after the entries, in order, without holding up the calls', async () => {
    const tabId = await openTab();
    await settled(tabId);
    const got: ListedEntry[][] = [];
    const watch = views().watch(
      'browser',
      'browser',
      tabId,
      (data) => {
        const message = data as ViewMessage;
        if (message.type === 'activity') got.push([...message.entries]);
      },
      () => undefined,
    );
    rig.person.answer = 'allow';
    // Back to back, none waiting for a picture: entries and pictures interleave as they come.
    for (let n = 0; n < 4; n++) expect((await clickAdd(tabId)).isError).toBe(false);
    const entries = await settled(tabId);
    watch.dispose();
    expect(entries).toHaveLength(1 + 4 * 2);
    for (const entry of entries.slice(0, -1)) {
      const first = got.find((list) => list.some((listed) => listed.id === entry.id))!;
      expect(first.find((listed) => listed.id === entry.id)!.picture).toBe('pending');
    }
    for (const list of got) {
      const newestPictured = list.findIndex((entry) => entry.picture === 'ready');
      if (newestPictured >= 0)
        expect(list.slice(newestPictured).map((entry) => entry.picture)).not.toContain('pending');
    }
    // No page navigated: every entry has its picture, and one picture may serve several entries.
    expect(entries.map((entry) => entry.picture)).toEqual(entries.map(() => 'ready'));
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it('keeps its bounds: entries, and the length of what a page named', async () => {
    const tabId = await openTab();
    rig.person.answer = 'allow';
    const long = await act(tabId, {
      operation: 'click',
      role: 'button',
      name: 'Long name '.repeat(200).trim(),
    });
    expect(long.isError, long.text).toBe(false);
    const named = (await settled(tabId))[0]!;
    expect(named.kind).toBe('act');
    expect([...named.what]).toHaveLength(MAX_TEXT);
    for (let n = 0; n < MAX_ENTRIES; n++) {
      const went = await rig.kit.call('browser', {
        action: 'navigate',
        tabId,
        url: `${origin()}/next?n=${n}`,
      });
      expect(went.isError, went.text).toBe(false);
    }
    const entries = await settled(tabId);
    // The oldest went first: the open, the long click and its approval.
    expect(entries).toHaveLength(MAX_ENTRIES);
    expect(entries.map((entry) => entry.kind)).toEqual(entries.map(() => 'navigation'));
    expect(entries.map((entry) => entry.id)).not.toContain(named.id);
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it('never lists what was typed, by hand-issued act or by a recorded workflow', async () => {
    const tabId = await openTab('/login');
    rig.person.answer = 'allow';
    for (const [name, text] of [
      ['Username', TYPED.name],
      ['Password', TYPED.password],
    ] as const) {
      const typed = await act(tabId, { operation: 'type', role: 'textbox', name, text });
      expect(typed.isError, typed.text).toBe(false);
    }
    const entries = await settled(tabId);
    expect(said(entries, ['act'])).toEqual([
      ['type into textbox “Password”', 'done'],
      ['type into textbox “Username”', 'done'],
    ]);
    const listed = JSON.stringify(entries);
    for (const value of Object.values(TYPED)) expect(listed).not.toContain(value);
    await rig.kit.call('browser', { action: 'close', tabId });
  });
});
