import { ApprovalsToken } from '@vmark/sdk';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_WAIT_MS } from '../src/navigation/navigation-result.js';
import { MAX_EVENTS_PER_PAGE, MAX_EVENTS_PER_SESSION } from '../src/recording/tab-recording.js';
import { WorkflowRecorder } from '../src/recording/workflow-recorder.js';
import type { BrowserTab } from '../src/tabs/browser-tab.js';
import { parseWorkflow } from '../src/workflow/parse-workflow.js';
import { startRig, type Rig } from './browser-rig.js';
import { type PersonDesk, personAt } from './person-desk.js';
import { type PageServer, startPageServer } from './page-server.js';
import { RECORDER_PAGES } from './recorder-pages.js';
import { filesHolding, TYPED } from './typed-values.js';

/*
 * The recorder on fixture pages (ADR 45): the browser's parts around a real host and its
 * approval broker (browser-rig.ts), with the test as the person — who allows the recording at
 * the editor and then uses the page with real input (CDP `Input.*`, trusted events, as their
 * input in the editor's view of the tab reaches it). One Chromium for the file.
 */

let rig: Rig;
let server: PageServer;
let person: PersonDesk;
let recorder: WorkflowRecorder;
const tabs: BrowserTab[] = [];

beforeAll(async () => {
  server = await startPageServer();
  for (const [route, html] of Object.entries(RECORDER_PAGES)) server.html(route, html);
  rig = await startRig({ allowPrivateNetwork: true });
  person = personAt(rig.kit);
  recorder = new WorkflowRecorder(rig.kit.host.container.get(ApprovalsToken));
}, 60_000);

afterAll(async () => {
  recorder?.dispose();
  person?.dispose();
  await rig?.dispose();
  await server?.close();
});

beforeEach(() => person.reset());
afterEach(async () => {
  for (const tab of tabs.splice(0)) if (tab.closed === null) await rig.registry.close(tab);
});

const url = (route: string) => `${server.origin}${route}`;

async function openAt(route: string): Promise<BrowserTab> {
  const tab = await rig.open();
  tabs.push(tab);
  await rig.navigator.navigate(tab, url(route), MAX_WAIT_MS, rig.call);
  return tab;
}

const navigate = (tab: BrowserTab, target: string) =>
  rig.navigator.navigate(tab, target, MAX_WAIT_MS, rig.call);

/** The person types `text` into the field `selector` names, as a person does: click, then keys. */
async function typeInto(tab: BrowserTab, selector: string, text: string): Promise<void> {
  await tab.page.click(selector);
  await tab.page.keyboard.type(text);
}

describe('a recording', () => {
  it('turns a form fill into the workflow of its locators: inputs for text, confirm for secrets, no value anywhere', async () => {
    const tab = await openAt('/form');
    expect(await recorder.start(tab, ' signup\n', rig.call)).toEqual({
      status: 'recording',
      tabId: tab.id,
      site: 'signup',
    });
    expect(person.asked.map((q) => q.request.operation)).toEqual(['record']);
    await typeInto(tab, 'input[name=fullname]', TYPED.name);
    await typeInto(tab, 'input[name=q]', TYPED.search);
    await typeInto(tab, 'input[name=pw]', TYPED.password);
    await typeInto(tab, 'input[name=code]', TYPED.code);
    await typeInto(tab, 'input[name=pin]', TYPED.pin);
    await typeInto(tab, '#bio', TYPED.bio);
    await typeInto(tab, '#notes', TYPED.notes);
    await tab.page.click('text=I agree');
    await tab.page.click('button[type=submit]');
    await tab.page.waitForURL(/\/done/);
    // Typed into a URL's query, then a link that carries a token in its path.
    await navigate(tab, `${url('/landing')}?q=${TYPED.url}`);
    await navigate(tab, url('/reset/abc'));
    const stopped = await recorder.stop(tab, rig.call);
    const origin = server.origin;
    expect(stopped.source).toBe(
      [
        '---',
        'site: signup',
        'inputs: [Full_name, Search, About_you, Notes]',
        '---',
        `1. action: navigate to ${origin}/form`,
        '2. action: type {Full_name} into "Full name" (textbox)',
        '3. action: type {Search} into "Search" (searchbox)',
        '4. confirm: enter "Password"',
        '5. confirm: enter "Code"',
        '6. confirm: enter "PIN"',
        '7. action: type {About_you} into "About you" (textbox)',
        '8. action: type {Notes} into "Notes" (textbox)',
        '9. action: click "I agree" (checkbox)',
        '10. action: click "Create account" (button)',
        `11. action: navigate to ${origin}/landing`,
        `12. action: navigate to ${origin}`,
        '',
      ].join('\n'),
    );
    expect(stopped).toMatchObject({
      inputs: ['Full_name', 'Search', 'About_you', 'Notes'],
      eventCount: 12,
      capped: false,
    });
    expect(parseWorkflow(stopped.source)).toMatchObject({ ok: true, warnings: [] });
    // The submitted form put every value in the URL the page went to: nothing of it was kept.
    expect(server.hits.some((hit) => hit.path.includes(TYPED.password))).toBe(true);
    const said = JSON.stringify(stopped) + JSON.stringify(person.asked);
    for (const value of Object.values(TYPED)) {
      expect(said).not.toContain(value);
      expect(await filesHolding(value, [rig.kit.home]), value).toEqual([]);
    }
  });

  it('records Enter in a form as the click on its default button that the browser makes of it', async () => {
    const tab = await openAt('/form');
    await recorder.start(tab, 'enter', rig.call);
    await typeInto(tab, 'input[name=fullname]', TYPED.name);
    await tab.page.keyboard.press('Enter');
    await tab.page.waitForURL(/\/done/);
    const stopped = await recorder.stop(tab, rig.call);
    expect(stopped.source.split('\n').slice(4)).toEqual([
      `1. action: navigate to ${server.origin}/form`,
      '2. action: type {Full_name} into "Full name" (textbox)',
      '3. action: click "Create account" (button)',
      '',
    ]);
  });

  it('records the page the tab navigates to, not those the page sends itself to', async () => {
    const tab = await openAt('/self-navigating');
    await recorder.start(tab, undefined, rig.call);
    await tab.page.click('#push');
    await tab.page.click('#next');
    await tab.page.waitForURL(/\/landing/);
    await navigate(tab, url('/refresh'));
    await tab.page.waitForURL(/\/landing/);
    const { source, eventCount } = await recorder.stop(tab, rig.call);
    expect(source).toBe(
      [
        '---',
        'site: recording',
        '---',
        `1. action: navigate to ${server.origin}/self-navigating`,
        '2. action: click "Push" (button)',
        '3. action: click "Next" (button)',
        `4. action: navigate to ${server.origin}/refresh`,
        '',
      ].join('\n'),
    );
    expect(eventCount).toBe(4);
    expect(source).not.toContain('token');
  });

  it("ignores the page's own events: a forged click or input is no person's", async () => {
    const tab = await openAt('/forged');
    await recorder.start(tab, 'forged', rig.call);
    await tab.page.evaluate(() => document.dispatchEvent(new Event('forge')));
    await tab.page.click('#b');
    await tab.page.evaluate(() => document.dispatchEvent(new Event('forge')));
    const { source } = await recorder.stop(tab, rig.call);
    expect(source.split('\n').filter((line) => /^\d+\./.test(line))).toEqual([
      `1. action: navigate to ${server.origin}/forged`,
      '2. action: click "Real" (button)',
    ]);
  });

  it('withholds a name that repeats what was typed, and leaves a click on no ARIA control to the person', async () => {
    const tab = await openAt('/echo');
    await recorder.start(tab, 'echo', rig.call);
    await typeInto(tab, '#q', TYPED.query);
    expect(await tab.page.textContent('#go')).toContain(TYPED.query);
    await tab.page.click('#go');
    await tab.page.click('#menu');
    const { source } = await recorder.stop(tab, rig.call);
    expect(source).not.toContain(TYPED.query);
    expect(source.split('\n').filter((line) => /^\d+\./.test(line))).toEqual([
      `1. action: navigate to ${server.origin}/echo`,
      '2. action: type {Query} into "Query" (textbox)',
      '3. confirm: click "" by hand — the recorder could not map it to an ARIA control',
      '4. confirm: click "Open menu" by hand — the recorder could not map it to an ARIA control',
    ]);
  });

  it(`keeps ${MAX_EVENTS_PER_PAGE} events a page and ${MAX_EVENTS_PER_SESSION} a recording, and says it was capped`, async () => {
    const tab = await openAt('/clicks');
    await recorder.start(tab, 'clicks', rig.call);
    const box = (await tab.page.locator('#b').boundingBox())!;
    const clickMany = async (times: number) => {
      for (let i = 0; i < times; i++) await tab.page.mouse.click(box.x + 10, box.y + 10);
    };
    await clickMany(MAX_EVENTS_PER_PAGE + 5);
    const page = await recorder.stop(tab, rig.call);
    expect(page).toMatchObject({ eventCount: 1 + MAX_EVENTS_PER_PAGE, capped: true });
    expect(parseWorkflow(page.source).ok).toBe(true);

    await recorder.start(tab, 'clicks', rig.call);
    for (let load = 0; load < 6; load++) {
      await clickMany(MAX_EVENTS_PER_PAGE);
      await navigate(tab, url('/clicks'));
    }
    const session = await recorder.stop(tab, rig.call);
    expect(session).toMatchObject({ eventCount: MAX_EVENTS_PER_SESSION, capped: true });
  }, 120_000);
});

describe('consent and refusals', () => {
  it('asks every time, never offering "allow on this site" (an answer that says so is a refusal)', async () => {
    const tab = await openAt('/clicks');
    await recorder.start(tab, undefined, rig.call);
    await recorder.stop(tab, rig.call);
    await recorder.start(tab, undefined, rig.call);
    await recorder.stop(tab, rig.call);
    expect(person.asked).toHaveLength(2);
    for (const question of person.asked) {
      expect(question.request).toMatchObject({
        operation: 'record',
        origin: server.origin,
        grantable: false,
      });
      expect(question.request.subject).toContain(
        `never what is typed — on ${url('/clicks')} (${tab.id}, page `,
      );
    }
    person.answer = 'allow-site';
    await expect(recorder.start(tab, undefined, rig.call)).rejects.toThrow(/^the user declined 'record'/);
    await expect(recorder.stop(tab, rig.call)).rejects.toThrow('no active recording for this tab');
  });

  it('records nothing when the person declines, or until someone allows', async () => {
    const tab = await openAt('/clicks');
    person.answer = 'deny';
    await expect(recorder.start(tab, undefined, rig.call)).rejects.toThrow(/^the user declined 'record' on /);
    await expect(recorder.stop(tab, rig.call)).rejects.toThrow(/^no active recording for this tab$/);
    person.answer = 'nobody';
    const waiting = await recorder.start(tab, undefined, rig.call).catch((error: unknown) => error);
    expect(waiting).toMatchObject({
      message: expect.stringContaining(
        'retry with browser {action:"workflow_record", tabId:"' + tab.id + '", recordOp:"start"}',
      ),
      structured: { needsApproval: true, operation: 'record', retry: { recordOp: 'start' } },
    });
    await expect(recorder.stop(tab, rig.call)).rejects.toThrow('no active recording for this tab');
  });

  it('refuses a second start, and a stop from another connection than the one allowed', async () => {
    const tab = await openAt('/clicks');
    await recorder.start(tab, undefined, rig.call);
    await expect(recorder.start(tab, undefined, rig.call)).rejects.toMatchObject({
      token: 'recording-already-active',
    });
    expect(person.asked).toHaveLength(1);
    const other = { ...rig.call, caller: { ...rig.call.caller, connectionId: 'conn-other' } };
    await expect(recorder.stop(tab, other)).rejects.toThrow('no active recording for this tab');
    await expect(recorder.stop(tab, rig.call)).resolves.toMatchObject({ eventCount: 1 });
    await expect(recorder.stop(tab, rig.call)).rejects.toThrow('no active recording for this tab');
  });

  it('ends a recording with its tab', async () => {
    const tab = await openAt('/clicks');
    await recorder.start(tab, undefined, rig.call);
    await rig.registry.close(tab);
    await expect(recorder.stop(tab, rig.call)).rejects.toThrow('no active recording for this tab');
  });
});
