import { realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PageServer, startPageServer } from '../plugins/browser/test/page-server.js';
import { call, connectStdio, eventually, TempDirs } from './support/cli.js';
import { startMcpHttp } from './support/mcp-http.js';

/*
 * The browser tools through the built CLI, with the real MCP SDK client over stdio and over
 * Streamable HTTP (issue 13, "checked by"): open / navigate / close / wait, browser tabs in
 * session.get_state, the tab limit, navigation tickets (TIMEOUT then wait, SUPERSEDED), a slow
 * redirect chain, a page that never finishes loading, and the argument bounds. Pages are served
 * on 127.0.0.1, so private networks are allowed (VMARK_BROWSER_ALLOW_PRIVATE=1).
 */

const temp = new TempDirs();
let pages: PageServer;

/** A page whose answer waits until the test releases it. */
function held(route: string, body = '<title>held</title><p>at last'): () => void {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  pages.route(route, (_req, res) => {
    void released.then(() => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(body);
    });
  });
  return release;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  pages = await startPageServer();
  pages.html('/a', '<title>Page A</title><p>a');
  pages.html('/b', '<title>Page B</title><p>b');
  pages.fixture('/rate-limited', 'gates/rate-limited.html');
  // A page that never finishes loading: its image is never answered.
  pages.html('/endless', '<title>Endless</title><img src="/never">');
  pages.route('/never', () => undefined);
  // A slow redirect chain: each hop answers after a while.
  for (const [from, to] of [
    ['/chain/1', '/chain/2'],
    ['/chain/2', '/chain/3'],
  ] as const) {
    pages.route(from, (_req, res) => {
      void delay(150).then(() => {
        res.writeHead(302, { location: to });
        res.end();
      });
    });
  }
  pages.html('/chain/3', '<title>End of the chain</title>');
  // A single-page app: the URL changes by history.pushState, no document is loaded.
  pages.html(
    '/spa',
    '<title>SPA</title><script>addEventListener("load", () => setTimeout(() => ' +
      'history.pushState({}, "", "/spa/inbox?token=secret"), 50));</script>',
  );
});
afterAll(async () => {
  await pages?.close();
  await temp.cleanup();
});

describe.each(['stdio', 'http'] as const)('the browser through the built CLI over %s', (transport) => {
  let client: Client;
  let stop: () => Promise<void>;
  let documentTab: string;

  beforeAll(async () => {
    const workspace = await realpath(await temp.make('vmark-browser-ws-'));
    const notes = path.join(workspace, 'notes.md');
    await writeFile(notes, '# notes\n');
    const home = await temp.make('vmark-browser-home-');
    const args = ['--workspace', workspace, '--open', notes];
    const env = { VMARK_BROWSER_ALLOW_PRIVATE: '1' };
    if (transport === 'stdio') {
      ({ client } = await connectStdio(args, home, { env }));
      stop = () => client.close();
    } else {
      const server = await startMcpHttp(args, home, env);
      client = await server.connect();
      stop = async () => {
        await client.close();
        await server.stop();
      };
    }
    const state = (await call(client, 'session', { action: 'get_state' })).data as {
      windows: { tabs: { id: string }[] }[];
    };
    documentTab = state.windows[0]!.tabs[0]!.id;
  });
  afterAll(async () => {
    await stop?.();
  });

  const browser = (args: Record<string, unknown>) => call(client, 'browser', args);
  const read = (args: Record<string, unknown>) => call(client, 'browser_read', args);
  const browserTabs = async () => {
    const state = (await call(client, 'session', { action: 'get_state' })).data as {
      windows: { tabs: Record<string, unknown>[] }[];
    };
    return state.windows.flatMap((w) => w.tabs).filter((t) => t.kind === 'browser');
  };
  const closeAll = async () => {
    for (const tab of await browserTabs()) await browser({ action: 'close', tabId: tab.id });
  };

  it("introduces the browser's loop in the instructions: read, confirm with wait_for, 8 tabs, tokens", () => {
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toMatch(/`browser` open → `browser_read` read/);
    expect(instructions).toMatch(/wait_for \{urlContains\}/);
    expect(instructions).toMatch(/At most 8 AI tabs/);
    expect(instructions).toMatch(/`TOKEN: message`/);
    expect(instructions).toMatch(/untrusted/);
  });

  it('opens an AI tab, shows it in session.get_state with a redacted URL, navigates and closes it', async () => {
    const opened = await browser({ action: 'open', url: `${pages.origin}/a?session=secret#frag` });
    expect(opened.isError, opened.text).toBe(false);
    expect(opened.data).toEqual({
      tabId: expect.stringMatching(/^tab-\d+$/),
      navigationId: 'nav-1',
      url: `${pages.origin}/a`,
      title: 'Page A',
      generation: 1,
      status: 200,
    });
    const tabId = opened.data.tabId as string;
    expect(await browserTabs()).toEqual([
      {
        id: tabId,
        kind: 'browser',
        title: 'Page A',
        url: `${pages.origin}/a`,
        active: true,
        loading: false,
        generation: 1,
        automationMode: 'ai-sandbox',
      },
    ]);
    expect(JSON.stringify(await browserTabs())).not.toContain('secret');

    const navigated = await browser({ action: 'navigate', tabId, url: `${pages.origin}/b` });
    expect(navigated.data).toMatchObject({ tabId, navigationId: 'nav-2', title: 'Page B', generation: 2 });
    // Without tabId, the focused browser tab.
    expect((await browser({ action: 'navigate', url: `${pages.origin}/a` })).data).toMatchObject({
      tabId,
      generation: 3,
    });
    const second = await browser({ action: 'open', url: `${pages.origin}/b` });
    expect((await browserTabs()).map((t) => [t.id, t.active])).toEqual([
      [tabId, false],
      [second.data.tabId, true],
    ]);

    expect((await browser({ action: 'close', tabId })).data).toEqual({
      tabId,
      closed: true,
      destroyed: true,
    });
    const again = await browser({ action: 'close', tabId });
    expect(again.text).toBe(`TAB_CLOSED: tab ${tabId} was closed\n{"tabId":"${tabId}"}`);
    expect(again.data).toEqual({ error: 'TAB_CLOSED', message: `tab ${tabId} was closed`, tabId });
    await closeAll();
    expect(await browserTabs()).toEqual([]);
  });

  it('bumps the generation on an SPA history change, and shows that URL redacted too', async () => {
    const { tabId } = (await browser({ action: 'open', url: `${pages.origin}/spa` })).data as {
      tabId: string;
    };
    await eventually(async () => (await browserTabs())[0]?.generation === 2);
    expect((await browserTabs())[0]).toMatchObject({
      id: tabId,
      url: `${pages.origin}/spa/inbox`,
      generation: 2,
    });
    await closeAll();
  });

  it('open ignores a tabId, as the original does: it always makes a new tab', async () => {
    const first = await browser({ action: 'open', url: `${pages.origin}/a` });
    const tabId = (first.data as { tabId: string }).tabId;
    const second = await browser({ action: 'open', url: `${pages.origin}/a`, tabId });
    expect(second.isError, second.text).toBe(false);
    expect((second.data as { tabId: string }).tabId).not.toBe(tabId);
    expect(await browserTabs()).toHaveLength(2);
    await closeAll();
  });

  it('refuses close of an unknown tab, of a document tab, and without a tabId', async () => {
    const unknown = await browser({ action: 'close', tabId: 'tab-999' });
    expect(unknown.data).toMatchObject({
      error: 'INVALID_TAB',
      message: 'tabId could not be resolved: tab-999',
    });
    const document = await browser({ action: 'close', tabId: documentTab });
    expect(document.data).toMatchObject({
      error: 'INVALID_TAB',
      message: `tab ${documentTab} is a document tab, not a browser tab`,
    });
    const none = await browser({ action: 'close' });
    expect(none).toMatchObject({ isError: true, text: 'close requires the `tabId` of an AI-owned tab' });
    const blank = await browser({ action: 'close', tabId: '  ' });
    expect(blank.isError).toBe(true);
    // The document tab is still there.
    const state = JSON.stringify((await call(client, 'session', { action: 'get_state' })).data);
    expect(state).toContain(`"id":"${documentTab}"`);
  });

  it('holds at most 8 AI tabs: the 9th open is TAB_LIMIT, and closing one makes room', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const opened = await browser({ action: 'open', url: `${pages.origin}/a?n=${i}` });
      expect(opened.isError, opened.text).toBe(false);
      ids.push(opened.data.tabId as string);
    }
    const ninth = await browser({ action: 'open', url: `${pages.origin}/b` });
    expect(ninth.isError).toBe(true);
    expect(ninth.text).toMatch(/^TAB_LIMIT: at most 8 AI tabs may be open at once; close one/);
    expect(ninth.data).toMatchObject({ error: 'TAB_LIMIT', limit: 8, open: ids });
    expect(await browserTabs()).toHaveLength(8);
    await browser({ action: 'close', tabId: ids[0] });
    expect((await browser({ action: 'open', url: `${pages.origin}/b` })).isError).toBe(false);
    await closeAll();
  });

  it('TIMEOUT still carries the ticket, and wait picks the page up', async () => {
    const release = held(`/held-${transport}`);
    const opened = await browser({
      action: 'open',
      url: `${pages.origin}/held-${transport}?x=1`,
      timeoutMs: 100,
    });
    expect(opened.isError).toBe(true);
    expect(opened.text).toMatch(
      /^TIMEOUT: the page did not finish loading within 100 ms; it is still loading — pick up its result with browser_read \{action: "wait", navigationId: "nav-1"\}/,
    );
    const ticket = opened.data as { tabId: string; navigationId: string; url: string };
    expect(ticket).toEqual({
      error: 'TIMEOUT',
      message: expect.any(String),
      tabId: expect.stringMatching(/^tab-\d+$/),
      navigationId: 'nav-1',
      url: `${pages.origin}/held-${transport}`,
    });
    expect((await browserTabs())[0]).toMatchObject({ id: ticket.tabId, loading: true });
    const early = await read({ action: 'wait', tabId: ticket.tabId, navigationId: 'nav-1', timeoutMs: 50 });
    expect(early.data).toMatchObject({ error: 'TIMEOUT', navigationId: 'nav-1' });
    release();
    const waited = await read({ action: 'wait', tabId: ticket.tabId, navigationId: 'nav-1' });
    expect(waited.data).toEqual({
      tabId: ticket.tabId,
      navigationId: 'nav-1',
      url: `${pages.origin}/held-${transport}`,
      title: 'held',
      generation: 1,
      status: 200,
    });
    // The latest ticket when none is named; an unknown one is said so.
    expect((await read({ action: 'wait', tabId: ticket.tabId })).data).toMatchObject({
      navigationId: 'nav-1',
    });
    expect((await read({ action: 'wait', tabId: ticket.tabId, navigationId: 'nav-9' })).data).toMatchObject({
      error: 'NAVIGATION_UNKNOWN',
    });
    await closeAll();
  });

  it('NAVIGATION_SUPERSEDED: a newer navigation settles the older ticket, waited for or in flight', async () => {
    const release = held(`/superseded-${transport}`);
    const { tabId } = (await browser({ action: 'open', url: `${pages.origin}/a` })).data as { tabId: string };
    const slow = await browser({
      action: 'navigate',
      tabId,
      url: `${pages.origin}/superseded-${transport}`,
      timeoutMs: 50,
    });
    expect(slow.data).toMatchObject({ error: 'TIMEOUT', navigationId: 'nav-2' });
    expect((await browser({ action: 'navigate', tabId, url: `${pages.origin}/b` })).data).toMatchObject({
      navigationId: 'nav-3',
      title: 'Page B',
    });
    const old = await read({ action: 'wait', tabId, navigationId: 'nav-2' });
    expect(old.text).toMatch(/^NAVIGATION_SUPERSEDED: another navigation of this tab \(nav-3\) started/);
    expect(old.data).toMatchObject({
      error: 'NAVIGATION_SUPERSEDED',
      navigationId: 'nav-2',
      supersededBy: 'nav-3',
    });

    // Two calls at once: the first one's answer is that the second one took over.
    const first = browser({
      action: 'navigate',
      tabId,
      url: `${pages.origin}/superseded-${transport}?again`,
    });
    await eventually(() => pages.count(`/superseded-${transport}?again`) === 1);
    const second = await browser({ action: 'navigate', tabId, url: `${pages.origin}/a` });
    expect(second.data).toMatchObject({ navigationId: 'nav-5', title: 'Page A' });
    expect((await first).data).toMatchObject({ error: 'NAVIGATION_SUPERSEDED', supersededBy: 'nav-5' });
    release();
    await closeAll();
  });

  it('follows a slow redirect chain to its end, within one call or picked up by wait', async () => {
    const opened = await browser({ action: 'open', url: `${pages.origin}/chain/1` });
    expect(opened.data).toMatchObject({
      url: `${pages.origin}/chain/3`,
      title: 'End of the chain',
      generation: 1,
      status: 200,
    });
    const quick = await browser({ action: 'open', url: `${pages.origin}/chain/1`, timeoutMs: 20 });
    expect(quick.data).toMatchObject({
      error: 'TIMEOUT',
      navigationId: 'nav-1',
      url: `${pages.origin}/chain/1`,
    });
    const { tabId } = quick.data as { tabId: string };
    expect((await read({ action: 'wait', tabId })).data).toMatchObject({
      tabId,
      url: `${pages.origin}/chain/3`,
      generation: 1,
    });
    await closeAll();
  });

  it('a page that never finishes loading: TIMEOUT each time, nothing hangs, and it can be left or closed', async () => {
    const opened = await browser({ action: 'open', url: `${pages.origin}/endless`, timeoutMs: 300 });
    expect(opened.data).toMatchObject({ error: 'TIMEOUT', navigationId: 'nav-1' });
    const { tabId } = opened.data as { tabId: string };
    expect((await read({ action: 'wait', tabId, timeoutMs: 200 })).data).toMatchObject({ error: 'TIMEOUT' });
    // The title comes with the page's HTML, which on a loaded machine can arrive after both timeouts.
    await eventually(async () => (await browserTabs())[0]?.title === 'Endless');
    expect((await browserTabs())[0]).toMatchObject({ id: tabId, loading: true, title: 'Endless' });
    expect((await browser({ action: 'navigate', tabId, url: `${pages.origin}/a` })).data).toMatchObject({
      navigationId: 'nav-2',
      title: 'Page A',
    });
    expect((await read({ action: 'wait', tabId, navigationId: 'nav-1' })).data).toMatchObject({
      error: 'NAVIGATION_SUPERSEDED',
    });
    await browser({ action: 'navigate', tabId, url: `${pages.origin}/endless`, timeoutMs: 100 });
    expect((await browser({ action: 'close', tabId })).data).toEqual({
      tabId,
      closed: true,
      destroyed: true,
    });
  });

  it.each([0, 9001, 1.5, -1, '100', null])(
    'refuses timeoutMs %j with the seed’s message, and opens nothing',
    async (timeoutMs) => {
      const message = 'timeoutMs must be an integer from 1 to 9000';
      for (const [tool, args] of [
        ['browser', { action: 'open', url: `${pages.origin}/a`, timeoutMs }],
        ['browser', { action: 'navigate', url: `${pages.origin}/a`, timeoutMs }],
        ['browser_read', { action: 'wait', timeoutMs }],
      ] as const) {
        const result = await call(client, tool, args);
        expect([tool, args.action, result.isError]).toEqual([tool, args.action, true]);
        expect(result.text).toContain(message);
      }
      expect(await browserTabs()).toEqual([]);
    },
  );

  it('accepts the bounds themselves', async () => {
    expect((await browser({ action: 'open', url: `${pages.origin}/a`, timeoutMs: 9000 })).isError).toBe(
      false,
    );
    const one = await browser({ action: 'navigate', url: `${pages.origin}/endless`, timeoutMs: 1 });
    expect(one.data).toMatchObject({ error: 'TIMEOUT' });
    await closeAll();
  });

  it('says what it sees: a gate on a rate-limit page, from the built bundle', async () => {
    const opened = await browser({ action: 'open', url: `${pages.origin}/rate-limited` });
    expect(opened.data).toMatchObject({
      gate: { kind: 'rate-limited', hint: expect.stringMatching(/^the site is rate-limiting/) },
    });
    await closeAll();
  });

  it('redacts the URL in a failure too', async () => {
    const failed = await browser({ action: 'open', url: 'http://127.0.0.1:9/closed?key=secret#x' });
    expect(failed.data).toMatchObject({ error: 'NAVIGATION_FAILED', url: 'http://127.0.0.1:9/closed' });
    expect(failed.text).not.toContain('secret');
    await closeAll();
  });
});
