import { describe, expect, it } from 'vitest';
import {
  browserTabs as listedTabs,
  callAs,
  openHumanTab as openPersonsTab,
  personHostForFile,
  untilAttached,
  viewRequest,
} from './person-desk.js';

/*
 * A person's own browser tabs (issue 17 item 3, ADR 52) in a real host with the browser plugin
 * and one Chromium: opened from a tab view's address bar, listed origin-only until attached,
 * read or acted in by the AI only under an attachment the person gave to that client, and never
 * closed, navigated or waited on by the AI.
 */

const PAGE = `<!doctype html><title>Private inbox</title>
<button id="add">Add</button><p id="log">count 0</p>
<script>let n = 0; add.onclick = () => { log.textContent = 'count ' + ++n; };</script>`;

const rig = personHostForFile((server) => {
  server.html('/mail/inbox', PAGE);
  server.html('/start', '<!doctype html><title>Start</title><p>start</p>');
});

const origin = () => `http://a.test:${rig.server.port}`;
const ask = (method: string, params: unknown) => viewRequest(rig.kit, method, params);
const browserTabs = () => listedTabs(rig.kit);
const openHumanTab = () => openPersonsTab(rig.kit, `${origin()}/start`, `${origin()}/mail/inbox?secret=1`);
const clickAdd = (tabId: string) =>
  rig.kit.call('browser', { action: 'act', tabId, operation: 'click', role: 'button', name: 'Add' });

const read = (tabId: string) => rig.kit.call('browser_read', { action: 'read', tabId });

describe("a person's own browser tab", () => {
  it('is listed origin-only, without a title, until attached; attached shows on it alone', async () => {
    const tabId = await openHumanTab();
    const tabs = browserTabs();
    expect(tabs.find((t) => t.id === tabId)).toEqual(
      expect.objectContaining({ automationMode: 'human', url: origin(), attached: false }),
    );
    expect(tabs.find((t) => t.id === tabId)).not.toHaveProperty('title');
    for (const tab of tabs.filter((t) => t.id !== tabId)) expect(tab).not.toHaveProperty('attached');
    await rig.kit.host.workbench.closeProvided('main', tabId);
  });

  it('asks the person before a read; "Allow once" covers one read, the next asks again', async () => {
    const tabId = await openHumanTab();
    rig.person.answer = 'allow';
    const first = await read(tabId);
    expect(first.isError, first.text).toBe(false);
    expect(JSON.stringify(first.data)).toContain('Add');
    expect(rig.person.asked.map((q) => q.request.operation)).toEqual(['attach']);
    expect(rig.person.asked[0]!.request.subject).toContain(tabId);
    expect(rig.person.asked[0]!.request.subject).not.toContain('secret');
    const second = await read(tabId);
    expect(second.isError).toBe(false);
    expect(rig.person.asked.map((q) => q.request.operation)).toEqual(['attach', 'attach']);
  });

  it('fails closed: a deny, or nobody to ask, refuses the read and shows nothing of the page', async () => {
    const tabId = await openHumanTab();
    rig.person.answer = 'deny';
    const denied = await read(tabId);
    expect(denied.isError).toBe(true);
    expect(denied.text).toMatch(/^the user declined 'attach' on /);
    expect(denied.text).not.toContain('Add');
    rig.person.answer = 'nobody';
    const pending = await rig.kit.call('browser_read', { action: 'screenshot', tabId });
    expect(pending.isError).toBe(true);
    expect(pending.text).toMatch(/^approval required: 'attach' on /);
    expect(pending.text).not.toContain('/mail/inbox');
    expect(browserTabs().find((t) => t.id === tabId)?.attached).toBe(false);
  });

  it('an act needs the attachment and its own approval, and spends an "Allow once"', async () => {
    const tabId = await openHumanTab();
    rig.person.answer = 'allow';
    const clicked = await clickAdd(tabId);
    expect(clicked.isError, clicked.text).toBe(false);
    expect(rig.person.asked.map((q) => q.request.operation)).toEqual(['attach', 'click']);
    const after = await rig.kit.call('browser_read', { action: 'query', tabId, selector: '#log' });
    expect(JSON.stringify(after.data)).toContain('count 1');
    expect(rig.person.asked.map((q) => q.request.operation)).toEqual(['attach', 'click', 'attach']);
  });

  it('wait_for urlContains under "Allow once" answers ATTACHMENT_ONCE_INSUFFICIENT and keeps the read', async () => {
    const tabId = await openHumanTab();
    rig.person.answer = 'allow';
    const waited = await rig.kit.call('browser_read', { action: 'wait_for', tabId, urlContains: 'inbox' });
    expect(waited.isError).toBe(true);
    expect(waited.text).toMatch(/^ATTACHMENT_ONCE_INSUFFICIENT: /);
    const kept = await read(tabId);
    expect(kept.isError, kept.text).toBe(false);
    expect(rig.person.asked).toHaveLength(1);
  });

  it('binds to the client that asked: another client is asked on its own and cannot spend it', async () => {
    const tabId = await openHumanTab();
    rig.person.answer = 'allow';
    // Left unspent: "Allow once" does not cover the wait, so the attachment stays for one read.
    await rig.kit.call('browser_read', { action: 'wait_for', tabId, urlContains: 'inbox' });
    const shown = browserTabs().find((t) => t.id === tabId);
    expect(shown).toEqual(expect.objectContaining({ attached: true, title: 'Private inbox' }));
    expect(shown?.url).toMatch(/\/mail\/inbox$/);
    rig.person.answer = 'deny';
    const otherRead = await callAs(rig.kit, 'other', 'browser_read', { action: 'read', tabId });
    expect(otherRead.isError).toBe(true);
    expect(JSON.stringify(otherRead.content)).toContain("declined 'attach'");
    expect(JSON.stringify(otherRead.content)).not.toContain('Add');
    const mine = await read(tabId);
    expect(mine.isError, mine.text).toBe(false);
    expect(rig.person.asked).toHaveLength(2);
  });

  it('lapses when the page navigates, an in-page navigation included', async () => {
    const tabId = await openHumanTab();
    rig.person.answer = 'allow';
    await rig.kit.call('browser_read', { action: 'wait_for', tabId, urlContains: 'inbox' });
    expect(browserTabs().find((t) => t.id === tabId)?.attached).toBe(true);
    await ask('navigate', { tabId, url: `${origin()}/mail/inbox#later` });
    await untilAttached(rig.kit, tabId, false);
    rig.person.answer = 'deny';
    const refused = await read(tabId);
    expect(refused.text).toMatch(/^the user declined 'attach'/);
  });

  it('"Allow until navigation" covers reads, waits and acts of that client until the person navigates', async () => {
    const tabId = await openHumanTab();
    rig.person.answer = 'allow-until-navigation';
    for (let i = 0; i < 3; i++) {
      const seen = await read(tabId);
      expect(seen.isError, seen.text).toBe(false);
    }
    const waited = await rig.kit.call('browser_read', { action: 'wait_for', tabId, urlContains: 'inbox' });
    expect(waited.isError, waited.text).toBe(false);
    rig.person.answer = 'allow';
    const clicked = await clickAdd(tabId);
    expect(clicked.isError, clicked.text).toBe(false);
    expect(rig.person.asked.map((q) => q.request.operation)).toEqual(['attach', 'click']);
    expect(rig.person.asked[0]!.request.untilNavigation).toBe(true);
    // Another client is still asked on its own.
    rig.person.answer = 'deny';
    const otherRead = await callAs(rig.kit, 'other-until', 'browser_read', { action: 'read', tabId });
    expect(otherRead.isError).toBe(true);
    expect(JSON.stringify(otherRead.content)).not.toContain('Add');
    // The person navigates in-page: the attachment ends, and the next read asks again.
    await ask('navigate', { tabId, url: `${origin()}/mail/inbox#later` });
    await untilAttached(rig.kit, tabId, false);
    const asked = rig.person.asked.length;
    const refused = await read(tabId);
    expect(refused.text).toMatch(/^the user declined 'attach'/);
    expect(rig.person.asked).toHaveLength(asked + 1);
  });

  it('is never closed, navigated, waited on, saved, run or recorded by the AI: TAB_NOT_AI_OWNED, and nobody is asked', async () => {
    const tabId = await openHumanTab();
    for (const args of [
      { action: 'close', tabId },
      { action: 'navigate', tabId, url: `${origin()}/start` },
      { action: 'session_save', tabId, handle: 'mine' },
      { action: 'console_clear', tabId },
      // A workflow would drive the person's tab, a recording watch what they type.
      { action: 'workflow_run', tabId, source: '---\nsite: test\n---\n1. extract: content\n' },
      { action: 'workflow_record', tabId, recordOp: 'start' },
    ]) {
      const refused = await rig.kit.call('browser', args);
      expect(refused.isError, args.action).toBe(true);
      expect(refused.text).toMatch(/^TAB_NOT_AI_OWNED: /);
    }
    for (const action of ['wait', 'console']) {
      const refused = await rig.kit.call('browser_read', { action, tabId });
      expect(refused.text).toMatch(/^TAB_NOT_AI_OWNED: /);
    }
    expect(rig.person.asked).toEqual([]);
    expect(browserTabs().some((t) => t.id === tabId)).toBe(true);
  });

  it("is never the AI's focus: named by a read it stays active: false, and a call naming no tab means the AI's", async () => {
    const tabId = await openHumanTab();
    const opened = await rig.kit.call('browser', { action: 'open', url: `${origin()}/start` });
    const aiTab = (opened.data as { tabId: string }).tabId;
    rig.person.answer = 'allow';
    expect((await read(tabId)).isError).toBe(false);
    expect(browserTabs().map((t) => [t.id, t.active])).toEqual(
      expect.arrayContaining([
        [tabId, false],
        [aiTab, true],
      ]),
    );
    const unnamed = await rig.kit.call('browser_read', { action: 'read' });
    expect(unnamed.isError, unnamed.text).toBe(false);
    expect(JSON.stringify(unnamed.data)).not.toContain('Add');
    expect(rig.person.asked).toHaveLength(1);
    await rig.kit.call('browser', { action: 'close', tabId: aiTab });
  });

  it('refuses an address bar target pages may not reach, opening nothing', async () => {
    const opened = await rig.kit.call('browser', { action: 'open', url: `${origin()}/start` });
    const beside = (opened.data as { tabId: string }).tabId;
    const before = browserTabs().length;
    await expect(ask('openTab', { tabId: beside, url: 'file:///etc/passwd' })).rejects.toThrow(
      /may not be opened/,
    );
    await expect(ask('openTab', { tabId: beside })).rejects.toThrow();
    expect(browserTabs().length).toBe(before);
    await rig.kit.call('browser', { action: 'close', tabId: beside });
  });
});
