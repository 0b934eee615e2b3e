import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createServer } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type BrowserServer, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PageServer, startPageServer } from '../plugins/browser/test/page-server.js';
import { startCdpChromium } from './support/cdp-chromium.js';
import { call, connectStdio, TempDirs } from './support/cli.js';

/*
 * A browser that runs elsewhere (VMARK_BROWSER_ENDPOINT), started separately from vmark: a
 * Playwright browser server and a Chromium with a CDP port. vmark drives it as its own, and its
 * network guard — no proxy in front of a remote browser — pauses every request over CDP.
 *
 * The remote browsers resolve `public.test` and `evil.test` to 127.0.0.1 (their network, where
 * the page server is); vmark's guard resolves `public.test` to a public address (its view of
 * the names, VMARK_BROWSER_HOST_RULES), as a browser in a container sees a site that vmark's
 * host sees on the internet. So `public.test` is an allowed page that the remote browser loads,
 * and what it leads to on 127.0.0.1 must be refused.
 */

const temp = new TempDirs();
let pages: PageServer;
const REMOTE_RULES = '--host-resolver-rules=MAP *.test 127.0.0.1';
const GUARD_RULES = 'MAP public.test 93.184.215.14, MAP other.test 93.184.215.14, MAP evil.test 127.0.0.1';
const sandbox = process.getuid?.() === 0 ? ['--no-sandbox'] : [];

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  pages = await startPageServer();
  pages.html('/a', '<title>Page A</title>');
  pages.html('/b', '<title>Page B</title>');
  pages.html('/secret', '<title>secret</title>');
  pages.route('/redirect', (_req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${pages.port}/secret?from=redirect` });
    res.end();
  });
  pages.route('/redirect-evil', (_req, res) => {
    res.writeHead(302, { location: `http://evil.test:${pages.port}/secret?from=evil` });
    res.end();
  });
  pages.route('/redirect-img', (_req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${pages.port}/secret?from=img-redirect` });
    res.end();
  });
  // A cross-site frame, in a process of its own: what it loads is guarded too.
  pages.html(
    '/inner',
    `<title>inner</title>
     <img src="http://127.0.0.1:${pages.port}/secret?from=inner-img">
     <img src="http://other.test:${pages.port}/redirect-img">
     <script>fetch('http://evil.test:${pages.port}/secret?from=inner-fetch', { mode: 'no-cors' }).catch(() => {});</script>`,
  );
  pages.html(
    '/public',
    `<title>public</title>
     <img src="http://127.0.0.1:${pages.port}/secret?from=img">
     <img src="http://public.test:${pages.port}/redirect-img">
     <iframe src="http://evil.test:${pages.port}/secret?from=frame"></iframe>
     <iframe src="http://other.test:${pages.port}/inner"></iframe>
     <script>
       fetch('http://[::1]:${pages.port}/secret?from=fetch', { mode: 'no-cors' }).catch(() => {});
       new Worker(URL.createObjectURL(new Blob(
         ["fetch('http://127.0.0.1:${pages.port}/secret?from=worker').catch(() => {})"])));
     </script>`,
  );
});
afterAll(async () => {
  await pages?.close();
  await temp.cleanup();
});

const secrets = () => pages.hits.filter((hit) => hit.path.startsWith('/secret'));

describe.each([
  ['a Playwright browser server', 'server'],
  ['a CDP endpoint', 'cdp'],
] as const)('VMARK_BROWSER_ENDPOINT at %s', (_what, kind) => {
  let server: BrowserServer | undefined;
  let cdp: ChildProcess | undefined;
  let endpoint: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    if (kind === 'server') {
      server = await chromium.launchServer({
        executablePath: '/usr/bin/chromium',
        args: [...sandbox, REMOTE_RULES],
      });
      endpoint = server.wsEndpoint();
    } else {
      const started = await startCdpChromium(await temp.make('vmark-cdp-profile-'), [REMOTE_RULES]);
      cdp = started.child;
      // The HTTP form of a CDP address works as well as the WebSocket one.
      endpoint = `http://${new URL(started.endpoint).host}`;
    }
  });
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await server?.close();
    cdp?.kill('SIGKILL');
  });

  const host = async (env: Record<string, string>, settings?: unknown) => {
    const home = await temp.make('vmark-remote-home-');
    if (settings !== undefined) await writeFile(path.join(home, 'settings.json'), JSON.stringify(settings));
    const { client } = await connectStdio([], home, {
      env: { VMARK_BROWSER_ENDPOINT: endpoint, ...env },
    });
    clients.push(client);
    return client;
  };

  it('opens, navigates and closes tabs in it, listed in session.get_state', async () => {
    const client = await host({ VMARK_BROWSER_ALLOW_PRIVATE: '1' });
    const opened = await call(client, 'browser', { action: 'open', url: `${pages.origin}/a` });
    expect(opened.isError, opened.text).toBe(false);
    expect(opened.data).toMatchObject({ navigationId: 'nav-1', title: 'Page A', status: 200 });
    const tabId = opened.data.tabId as string;
    expect(
      (await call(client, 'browser', { action: 'navigate', tabId, url: `${pages.origin}/b` })).data,
    ).toMatchObject({ title: 'Page B', generation: 2 });
    const state = JSON.stringify((await call(client, 'session', { action: 'get_state' })).data);
    expect(state).toContain(`"id":"${tabId}","kind":"browser","title":"Page B"`);
    expect((await call(client, 'browser', { action: 'close', tabId })).data).toEqual({
      tabId,
      closed: true,
      destroyed: true,
    });
  });

  it('refuses the shared posture, whose profile lives on this machine', async () => {
    const client = await host({ VMARK_BROWSER_ALLOW_PRIVATE: '1' }, { browser: { posture: 'shared' } });
    const result = await call(client, 'browser', { action: 'open', url: `${pages.origin}/a` });
    expect(result.text).toMatch(/^BROWSER_UNAVAILABLE: the shared posture keeps a profile on this machine/);
  });

  it('guards it with private networks off: redirects, frames, images, fetches and workers to private addresses refused', async () => {
    const client = await host({ VMARK_BROWSER_HOST_RULES: GUARD_RULES });
    const before = secrets().length;
    const direct = await call(client, 'browser', { action: 'open', url: `${pages.origin}/secret` });
    expect(direct.text).toMatch(/^PERMISSION_DENIED: 127\.0\.0\.1 is a loopback address/);

    const publicPage = await call(client, 'browser', {
      action: 'open',
      url: `http://public.test:${pages.port}/public`,
    });
    expect(publicPage.isError, publicPage.text).toBe(false);
    expect(publicPage.data).toMatchObject({ title: 'public', status: 200 });
    const tabId = publicPage.data.tabId as string;
    for (const path of ['/redirect', '/redirect-evil']) {
      const redirected = await call(client, 'browser', {
        action: 'navigate',
        tabId,
        url: `http://public.test:${pages.port}${path}`,
      });
      expect(redirected.text).toMatch(/^PERMISSION_DENIED: (127\.0\.0\.1|evil\.test) is a loopback address/);
    }
    // The public page loaded again, and its worker had its time to try.
    await call(client, 'browser', {
      action: 'navigate',
      tabId,
      url: `http://public.test:${pages.port}/public`,
    });
    await call(client, 'browser', { action: 'navigate', tabId, url: `http://public.test:${pages.port}/a` });
    // Everything was asked for — the redirects answered, the cross-site frame loaded — and no secret.
    expect(pages.count('/redirect')).toBeGreaterThan(0);
    expect(pages.count('/inner')).toBeGreaterThan(0);
    expect(pages.count('/redirect-img')).toBeGreaterThanOrEqual(4);
    expect(secrets().slice(before)).toEqual([]);
  });

  it('stays usable by others when a vmark holding it is killed', async () => {
    const { client, transport } = await connectStdio([], await temp.make('vmark-remote-home-'), {
      env: { VMARK_BROWSER_ENDPOINT: endpoint, VMARK_BROWSER_HOST_RULES: GUARD_RULES },
    });
    clients.push(client);
    await call(client, 'browser', { action: 'open', url: `http://public.test:${pages.port}/public` });
    process.kill(transport.pid!, 'SIGKILL');
    const other = await host({ VMARK_BROWSER_ALLOW_PRIVATE: '1' });
    const opened = await call(other, 'browser', {
      action: 'open',
      url: `${pages.origin}/b`,
      timeoutMs: 5000,
    });
    expect(opened.data).toMatchObject({ title: 'Page B' });
  });

  it('is left running when vmark lets go of it', async () => {
    const client = await host({ VMARK_BROWSER_ALLOW_PRIVATE: '1' });
    await call(client, 'browser', { action: 'open', url: `${pages.origin}/a` });
    await client.close();
    const again = await host({ VMARK_BROWSER_ALLOW_PRIVATE: '1' });
    expect((await call(again, 'browser', { action: 'open', url: `${pages.origin}/b` })).data).toMatchObject({
      title: 'Page B',
    });
  });
});

describe('a browser that cannot be had', () => {
  it.each([
    ['a Playwright server address', (port: number) => `ws://127.0.0.1:${port}/playwright?token=hunter2`],
    ['a CDP address', (port: number) => `http://user:hunter2@127.0.0.1:${port}/`],
  ])(
    'BROWSER_UNAVAILABLE for an unreachable endpoint (%s), naming it without its secrets',
    async (_what, address) => {
      const endpoint = address(await closedPort());
      const { client } = await connectStdio([], await temp.make('vmark-remote-home-'), {
        env: { VMARK_BROWSER_ENDPOINT: endpoint, VMARK_BROWSER_ALLOW_PRIVATE: '1' },
      });
      try {
        const result = await call(client, 'browser', { action: 'open', url: `${pages.origin}/a` });
        expect(result.isError).toBe(true);
        expect(result.text).toMatch(
          /^BROWSER_UNAVAILABLE: could not reach the browser at VMARK_BROWSER_ENDPOINT \(/,
        );
        expect(result.text).not.toContain('hunter2');
        expect(result.data).toMatchObject({ error: 'BROWSER_UNAVAILABLE' });
        // Nothing was left half-made: no tab, and the next call says the same.
        expect(JSON.stringify((await call(client, 'session', { action: 'get_state' })).data)).not.toContain(
          '"kind":"browser"',
        );
        expect(
          (await call(client, 'browser', { action: 'open', url: `${pages.origin}/a` })).data,
        ).toMatchObject({
          error: 'BROWSER_UNAVAILABLE',
        });
      } finally {
        await client.close();
      }
    },
  );

  it('BROWSER_UNAVAILABLE when VMARK_CHROMIUM names nothing, saying how to get a Chromium', async () => {
    const { client } = await connectStdio([], await temp.make('vmark-remote-home-'), {
      env: { VMARK_CHROMIUM: '/nonexistent/chromium', VMARK_BROWSER_ALLOW_PRIVATE: '1' },
    });
    try {
      const result = await call(client, 'browser', { action: 'open', url: `${pages.origin}/a` });
      expect(result.text).toBe(
        'BROWSER_UNAVAILABLE: VMARK_CHROMIUM names "/nonexistent/chromium", which is not an executable program. ' +
          'Install one (Debian/Ubuntu: apt-get install chromium), set VMARK_CHROMIUM to its path, or set ' +
          'VMARK_BROWSER_ENDPOINT to a running browser (a CDP or Playwright browser-server WebSocket).',
      );
      const notChromium = await connectStdio([], await temp.make('vmark-remote-home-'), {
        env: { VMARK_CHROMIUM: '/bin/false', VMARK_BROWSER_ALLOW_PRIVATE: '1' },
      });
      try {
        const failed = await call(notChromium.client, 'browser', {
          action: 'open',
          url: `${pages.origin}/a`,
        });
        expect(failed.text).toMatch(/^BROWSER_UNAVAILABLE: Chromium did not start: /);
      } finally {
        await notChromium.client.close();
      }
    } finally {
      await client.close();
    }
  });
});
