import { isTokenError } from '@vmark/sdk';
import type { TestHost } from '@vmark/sdk/testing';
import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserTab } from '../src/tabs/browser-tab.js';
import { startBrowserHost, startRig, type Rig } from './browser-rig.js';
import { type PageServer, startPageServer } from './page-server.js';

/*
 * The network guard in a real Chromium with private networks OFF (issue 13, "guard tests"):
 * every request must be refused before it reaches the page server on 127.0.0.1, which counts
 * what it gets. `evil.test` resolves to 127.0.0.1 through VMARK_BROWSER_HOST_RULES.
 *
 * An allowed page must exist to test what it redirects to or loads, and no public server is
 * reachable from a test. So "the internet" is played by the tab's own routes (Playwright's
 * request interception, inside the browser, before its network stack): `public.test` answers
 * from them without any request going out, and the guard sees the name as public (the host
 * rules map it to a public address nobody connects to). Everything after that first answer —
 * the redirect hop, the frames, images, scripts, fetches and sockets the page asks for — is the
 * browser's own request through the real guard proxy, exactly as in use. No part of the guard
 * is configured for the test.
 */
process.env.VMARK_BROWSER_ALLOW_PRIVATE = '0';
process.env.VMARK_BROWSER_HOST_RULES = 'MAP evil.test 127.0.0.1, MAP public.test 93.184.215.14';

let pages: PageServer;
let kit: TestHost;

beforeAll(async () => {
  pages = await startPageServer();
  pages.html('/secret', '<title>secret</title>');
  kit = await startBrowserHost();
});
afterAll(async () => {
  await kit?.dispose();
  await pages?.close();
});

describe('what an AI asks to open', () => {
  it.each([
    'http://127.0.0.1:PORT/secret',
    'http://localhost:PORT/secret',
    'http://evil.test:PORT/secret',
    'https://evil.test:PORT/secret',
    'http://[::1]:PORT/secret',
    'http://[::ffff:127.0.0.1]:PORT/secret',
    'http://0.0.0.0:PORT/secret',
    'http://2130706433:PORT/secret',
    'http://0x7f.1:PORT/secret',
    'http://0177.0.0.1:PORT/secret',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://192.168.1.1/',
  ])('refuses %s: PERMISSION_DENIED, final, and the server never hears of it', async (template) => {
    const url = template.replace('PORT', String(pages.port));
    const result = await kit.call('browser', { action: 'open', url });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^PERMISSION_DENIED: .+; this is final, not something to approve/);
    expect(result.structured).toMatchObject({ error: 'PERMISSION_DENIED', url: expect.any(String) });
    expect(result.structured).not.toHaveProperty('needsApproval');
  });

  it.each([
    'file:///etc/passwd',
    'data:text/html,<title>x</title>',
    'javascript:alert(document.cookie)',
    'chrome://crash',
    'chrome://settings/',
    'view-source:http://127.0.0.1:PORT/secret',
    'about:blank',
  ])('refuses the scheme of %s', async (template) => {
    const url = template.replace('PORT', String(pages.port));
    const result = await kit.call('browser', { action: 'open', url });
    expect(result.text).toMatch(/^PERMISSION_DENIED: only http and https pages may be opened, not [a-z-]+:;/);
  });

  it('made no tab for any of them, and the server got nothing', () => {
    expect(kit.host.workbench.providedTabs('main')).toEqual([]);
    expect(pages.hits).toEqual([]);
  });
});

describe('what an allowed page leads to', () => {
  let rig: Rig;
  let tab: BrowserTab;

  beforeAll(async () => {
    rig = await startRig({
      allowPrivateNetwork: false,
      hostRules: 'MAP evil.test 127.0.0.1, MAP public.test 93.184.215.14',
    });
    tab = await rig.open();
    const secret = `${pages.port}/secret`;
    const internet: Record<string, (route: Route) => Promise<void>> = {
      '/to-loopback': (route) =>
        route.fulfill({ status: 302, headers: { location: `http://127.0.0.1:${secret}` } }),
      '/to-evil-https': (route) =>
        route.fulfill({ status: 301, headers: { location: `https://evil.test:${secret}` } }),
      '/to-ipv6': (route) => route.fulfill({ status: 307, headers: { location: `http://[::1]:${secret}` } }),
      // (A hop after a fulfilled redirect is never routed: it would go out to the network. One hop.)
      '/to-hex': (route) => route.fulfill({ status: 308, headers: { location: `http://0x7f.1:${secret}` } }),
      '/to-file': (route) => route.fulfill({ status: 302, headers: { location: 'file:///etc/passwd' } }),
      '/page': (route) =>
        route.fulfill({
          status: 200,
          contentType: 'text/html',
          body: `<title>public</title>
            <img src="http://127.0.0.1:${pages.port}/pixel">
            <iframe src="http://evil.test:${pages.port}/frame"></iframe>
            <iframe src="https://evil.test:${pages.port}/frame-tls"></iframe>
            <script src="http://[::ffff:127.0.0.1]:${pages.port}/script.js"></script>
            <link rel="stylesheet" href="http://2130706433:${pages.port}/style.css">
            <script>
              const tries = [
                fetch('http://[::1]:${pages.port}/fetch', { mode: 'no-cors' }),
                fetch('https://evil.test:${pages.port}/fetch-tls', { mode: 'no-cors' }),
                new Promise((resolve) => {
                  const socket = new WebSocket('ws://127.0.0.1:${pages.port}/socket');
                  socket.onerror = socket.onclose = resolve;
                }),
                fetch('http://169.254.169.254/latest/meta-data/', { mode: 'no-cors' }),
              ];
              Promise.allSettled(tries).then((all) => (document.title = all.map((t) => t.status).join(',')));
            </script>`,
        }),
      '/script-redirect': (route) =>
        route.fulfill({
          status: 200,
          contentType: 'text/html',
          body: `<title>moving</title><script>location.replace('http://evil.test:${pages.port}/secret')</script>`,
        }),
    };
    await tab.context.route(/^http:\/\/public\.test\//, (route) => {
      const answer = internet[new URL(route.request().url()).pathname];
      return answer ? answer(route) : route.fulfill({ status: 404, body: 'not found' });
    });
  });
  afterAll(async () => {
    await rig?.dispose();
  });

  const navigate = (path: string) => rig.navigator.navigate(tab, `http://public.test${path}`, 9000, rig.call);
  const refusalOf = async (pending: Promise<unknown>) => {
    const error: unknown = await pending.then(
      () => new Error('expected a refusal'),
      (e: unknown) => e,
    );
    if (!isTokenError(error)) throw error;
    return { code: error.token, message: error.message, data: error.data };
  };

  it.each([
    ['/to-loopback', /^127\.0\.0\.1 is a loopback address/],
    ['/to-evil-https', /^evil\.test is a loopback address/],
    ['/to-ipv6', /^::1 is a loopback address/],
    ['/to-hex', /^127\.0\.0\.1 is a loopback address/],
  ])(
    'refuses the redirect hop of %s: PERMISSION_DENIED, nothing reaches the server',
    async (path, reason) => {
      const refusal = await refusalOf(navigate(path));
      expect(refusal.code).toBe('PERMISSION_DENIED');
      expect(refusal.message).toMatch(reason);
      expect(refusal.message).toMatch(/; this is final, not something to approve$/);
      expect(refusal.data).toMatchObject({ tabId: tab.id, url: `http://public.test${path}` });
      expect(pages.hits).toEqual([]);
    },
  );

  it('never follows a redirect to another scheme', async () => {
    const refusal = await refusalOf(navigate('/to-file'));
    expect(refusal.code).toBe('NAVIGATION_FAILED');
    expect(refusal.message).toMatch(/ERR_UNSAFE_REDIRECT/);
  });

  it("blocks a public page's frames, images, scripts, styles, fetches and sockets to private addresses", async () => {
    const before = rig.engine.refusalCount;
    const loaded = await navigate('/page');
    expect(loaded).toMatchObject({ url: 'http://public.test/page', status: 200 });
    // The page's script reports when every attempt has settled, one way or another.
    await expect.poll(() => tab.page.title()).toMatch(/^(rejected|fulfilled)(,(rejected|fulfilled)){3}$/);
    const refused = rig.engine.refusalsSince(before).map((r) => r.target);
    expect(refused).toEqual(
      expect.arrayContaining([
        `http://127.0.0.1:${pages.port}/pixel`,
        `http://evil.test:${pages.port}/frame`,
        `https://evil.test:${pages.port}`,
        `http://[::ffff:7f00:1]:${pages.port}/script.js`,
        `http://127.0.0.1:${pages.port}/style.css`,
        `http://[::1]:${pages.port}/fetch`,
        `https://127.0.0.1:${pages.port}`,
        'http://169.254.169.254/latest/meta-data/',
      ]),
    );
    expect(pages.hits).toEqual([]);
  });

  it("refuses the page's own redirect before it loaded", async () => {
    const refusal = await refusalOf(navigate('/script-redirect'));
    expect(refusal.code).toBe('PERMISSION_DENIED');
    expect(pages.hits).toEqual([]);
  });

  it('refuses navigating the tab to a private address, and the tab stays where it was', async () => {
    await navigate('/page');
    const refusal = await refusalOf(
      rig.navigator.navigate(tab, `http://evil.test:${pages.port}/secret`, 9000, rig.call),
    );
    expect(refusal.code).toBe('PERMISSION_DENIED');
    expect(refusal.message).toMatch(/^evil\.test is a loopback address \(this machine\) \(127\.0\.0\.1\)/);
    expect(tab.url).toBe('http://public.test/page');
    expect(pages.hits).toEqual([]);
  });

  it('navigates on normally after a refusal', async () => {
    await refusalOf(navigate('/to-evil-https'));
    expect(await navigate('/page')).toMatchObject({ url: 'http://public.test/page', status: 200 });
    expect(pages.hits).toEqual([]);
  });
});
