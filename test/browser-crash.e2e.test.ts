import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumProcesses, killChromium } from '../plugins/browser/test/chromium-processes.js';
import { type PageServer, startPageServer } from '../plugins/browser/test/page-server.js';
import { call, connectStdio, eventually, TempDirs } from './support/cli.js';

/*
 * A renderer that crashes and a browser that is killed, under the built CLI (issue 13, engine):
 * the AI is told its tabs closed (TAB_CLOSED), a call in flight answers instead of hanging, and
 * the next open starts afresh. The crash is real: the processes are killed, as an OOM killer
 * or a crash would.
 */

const temp = new TempDirs();
let pages: PageServer;
let client: Client;
let vmark: number;

beforeAll(async () => {
  pages = await startPageServer();
  pages.html('/a', '<title>Page A</title>');
  pages.html('/endless', '<title>Endless</title><img src="/never">');
  pages.route('/never', () => undefined);
  const connected = await connectStdio([], await temp.make('vmark-crash-home-'), {
    env: { VMARK_BROWSER_ALLOW_PRIVATE: '1' },
  });
  client = connected.client;
  vmark = connected.transport.pid!;
});
afterAll(async () => {
  await client?.close();
  await pages?.close();
  await temp.cleanup();
});

const open = async (path: string) =>
  (await call(client, 'browser', { action: 'open', url: `${pages.origin}${path}` })).data;
const browserTabs = async () => {
  const state = (await call(client, 'session', { action: 'get_state' })).data as {
    windows: { tabs: { id: string; kind: string }[] }[];
  };
  return state.windows.flatMap((w) => w.tabs).filter((t) => t.kind === 'browser');
};
const browserPids = () =>
  chromiumProcesses(vmark)
    .filter((p) => p.type === 'browser')
    .map((p) => p.pid);

describe.each([
  ['its renderers are killed', 'renderer', 'its page crashed (open it again to continue)'],
  ['the browser is killed', 'browser', 'the browser it lived in stopped (open a new tab to start it again)'],
])('when %s', (_what, victim, words) => {
  it('a call waiting on a page answers TAB_CLOSED, the tabs report closed, and the next open starts afresh', async () => {
    const { tabId } = (await open('/a')) as { tabId: string };
    const before = browserPids();
    const asked = pages.count('/never');
    const waiting = call(client, 'browser', { action: 'open', url: `${pages.origin}/endless` });
    // The page is loading (its image was asked for) when its processes go.
    await eventually(() => pages.count('/never') > asked);
    const endlessCount = pages.count('/never');
    expect(killChromium(vmark, victim)).toBeGreaterThan(0);

    const answered = await waiting;
    expect(answered.data).toMatchObject({ error: 'TAB_CLOSED' });
    expect(answered.text).toContain(words);
    const navigate = await call(client, 'browser', { action: 'navigate', tabId, url: `${pages.origin}/a` });
    expect(navigate.text).toBe(`TAB_CLOSED: tab ${tabId} was closed: ${words}\n{"tabId":"${tabId}"}`);
    expect(await browserTabs()).toEqual([]);

    expect(await open('/a')).toMatchObject({ title: 'Page A', generation: 1 });
    if (victim === 'browser') expect(browserPids()).not.toEqual(before);
    expect(pages.count('/never')).toBe(endlessCount);
    for (const tab of await browserTabs()) await call(client, 'browser', { action: 'close', tabId: tab.id });
  });
});
