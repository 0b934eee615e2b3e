import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumProcesses } from '../plugins/browser/test/chromium-processes.js';
import { type PageServer, startPageServer } from '../plugins/browser/test/page-server.js';
import { call, connectStdio, type ElicitationPolicy, eventually, runCli, TempDirs } from './support/cli.js';

/*
 * The browser's settings through the built CLI (issue 13, "tabs and postures"):
 * `browser.enabled` off refuses every action; the shared posture keeps a profile under
 * $VMARK_HOME/browser/profile, asks a person before each new origin (through elicitation, or
 * `vmark approvals` with `data.retry` naming the tab to retry in), and keeps its cookies from one
 * host to the next, which the sandbox posture does not.
 */

const temp = new TempDirs();
let pages: PageServer;
let other: PageServer;

beforeAll(async () => {
  pages = await startPageServer();
  other = await startPageServer();
  for (const server of [pages, other]) {
    server.html('/a', '<title>Page A</title>');
    server.html('/b', '<title>Page B</title>');
  }
  pages.html('/set-cookie', '<title>set</title>', {
    'set-cookie': 'kept=yes; Max-Age=3600; Path=/; SameSite=Lax',
  });
  pages.route('/show-cookie', (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<title>cookie: ${(req.headers.cookie ?? 'none').replace(/[<&]/g, '')}</title>`);
  });
});
afterAll(async () => {
  await pages?.close();
  await other?.close();
  await temp.cleanup();
});

interface Host {
  readonly client: Client;
  readonly pid: number;
  /** What the person was asked, through elicitation. */
  readonly asked: string[];
  stop(): Promise<void>;
}

async function startHost(home: string, elicitation?: ElicitationPolicy): Promise<Host> {
  const asked: string[] = [];
  const { client, transport } = await connectStdio([], home, {
    elicitation,
    onElicit: (message) => asked.push(message),
    env: { VMARK_BROWSER_ALLOW_PRIVATE: '1' },
  });
  const pid = transport.pid!;
  return {
    client,
    pid,
    asked,
    async stop() {
      await client.close();
      // The host stops its browser as it exits: only then is the profile free and flushed.
      await eventually(() => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      }, 15_000);
    },
  };
}

const settings = (home: string, browser: Record<string, unknown>) =>
  writeFile(path.join(home, 'settings.json'), JSON.stringify({ browser }));

describe('browser.enabled', () => {
  it('off: every action answers BROWSER_DISABLED, and no browser starts; on again: it works', async () => {
    const home = await temp.make('vmark-settings-home-');
    await settings(home, { enabled: false });
    const host = await startHost(home);
    try {
      for (const [tool, args] of [
        ['browser', { action: 'open', url: `${pages.origin}/a` }],
        ['browser', { action: 'navigate', tabId: 'tab-1', url: `${pages.origin}/a` }],
        ['browser', { action: 'close', tabId: 'tab-1' }],
        ['browser_read', { action: 'wait', tabId: 'tab-1' }],
      ] as const) {
        const result = await call(host.client, tool, args);
        expect([tool, args.action, result.text]).toEqual([
          tool,
          args.action,
          'BROWSER_DISABLED: the embedded browser is turned off in Settings (browser.enabled); ask the user to turn it on',
        ]);
        expect(result.data).toMatchObject({ error: 'BROWSER_DISABLED' });
      }
      expect(chromiumProcesses(host.pid)).toEqual([]);
      expect(pages.hits).toEqual([]);
      // Read on every call: the person turns it back on, and the next call goes through.
      await settings(home, { enabled: true });
      expect(
        (await call(host.client, 'browser', { action: 'open', url: `${pages.origin}/a` })).data,
      ).toMatchObject({
        title: 'Page A',
      });
    } finally {
      await host.stop();
    }
  });
});

describe('browser.posture: shared', () => {
  it('asks through elicitation before each new origin, and only then', async () => {
    const home = await temp.make('vmark-settings-home-');
    await settings(home, { posture: 'shared' });
    const host = await startHost(home, 'accept');
    try {
      const opened = await call(host.client, 'browser', {
        action: 'open',
        url: `${pages.origin}/a?token=secret`,
      });
      expect(opened.isError, opened.text).toBe(false);
      expect(opened.data).toMatchObject({ title: 'Page A', url: `${pages.origin}/a` });
      expect(host.asked).toEqual([
        `VMark: allow navigate on "${pages.origin}/a" (origin "${pages.origin}")? ` +
          'Asked by "vmark-e2e" (connection conn-1, not an installed client).',
      ]);
      const { tabId } = opened.data as { tabId: string };
      const state = JSON.stringify((await call(host.client, 'session', { action: 'get_state' })).data);
      expect(state).toContain('"automationMode":"ai-shared"');
      await access(path.join(home, 'browser', 'profile'));

      // The same origin again: no question.
      await call(host.client, 'browser', { action: 'navigate', tabId, url: `${pages.origin}/b` });
      expect(host.asked).toHaveLength(1);
      // Another origin: asked again.
      const elsewhere = await call(host.client, 'browser', {
        action: 'navigate',
        tabId,
        url: `${other.origin}/a`,
      });
      expect(elsewhere.data).toMatchObject({ title: 'Page A', url: `${other.origin}/a` });
      expect(host.asked).toHaveLength(2);
      expect(host.asked[1]).toContain(`(origin "${other.origin}")`);
    } finally {
      await host.stop();
    }
  });

  it('a person who declines: the call says so, the page is not loaded, and the tab stays where it was', async () => {
    const home = await temp.make('vmark-settings-home-');
    await settings(home, { posture: 'shared' });
    const host = await startHost(home, 'decline');
    const before = pages.count('/b');
    try {
      const declined = await call(host.client, 'browser', { action: 'open', url: `${pages.origin}/b` });
      expect(declined.isError).toBe(true);
      expect(declined.text).toMatch(
        new RegExp(`^the user declined 'navigate' on ${pages.origin.replace(/\./g, '\\.')}\\. Do not retry`),
      );
      expect(declined.data).toEqual({
        needsApproval: true,
        denied: true,
        operation: 'navigate',
        url: pages.origin,
        requestId: expect.stringMatching(/^apr-/),
      });
      expect(pages.count('/b')).toBe(before);
    } finally {
      await host.stop();
    }
  });

  it('with no one to ask in the call: needsApproval with data.retry, then `vmark approvals allow` and the retry', async () => {
    const home = await temp.make('vmark-settings-home-');
    await settings(home, { posture: 'shared' });
    const host = await startHost(home);
    try {
      const first = await call(host.client, 'browser', { action: 'open', url: `${pages.origin}/a` });
      expect(first.isError).toBe(true);
      const data = first.data as { requestId: string; retry: { action: string; tabId: string } };
      expect(data).toEqual({
        needsApproval: true,
        operation: 'navigate',
        url: pages.origin,
        requestId: expect.stringMatching(/^apr-/),
        retry: { action: 'navigate', tabId: expect.stringMatching(/^tab-\d+$/) },
      });
      const { tabId } = data.retry;
      expect(first.text).toBe(
        `approval required: 'navigate' on ${pages.origin}. Ask the user to approve this action in VMark and WAIT. ` +
          `Once they have approved, retry with browser {action:"navigate", tabId:"${tabId}"} — a fresh open would ` +
          'create a new tab that the approval cannot cover. Do not retry before they have approved — a retry only ' +
          're-raises the same request.',
      );
      // The tab is kept, unloaded, for the retry.
      const state = JSON.stringify((await call(host.client, 'session', { action: 'get_state' })).data);
      expect(state).toContain(`"id":"${tabId}","kind":"browser"`);
      expect(state).toContain('"url":"about:blank"');

      const waiting = JSON.parse(
        (await runCli(['approvals', 'list', '--json'], { VMARK_HOME: home })).stdout,
      ) as { id: string; subject: string; status: string }[];
      expect(waiting).toEqual([
        expect.objectContaining({ id: data.requestId, subject: `${pages.origin}/a`, status: 'waiting' }),
      ]);
      expect((await runCli(['approvals', 'allow', data.requestId], { VMARK_HOME: home })).code).toBe(0);

      const retried = await call(host.client, 'browser', {
        action: 'navigate',
        tabId,
        url: `${pages.origin}/a`,
      });
      expect(retried.isError, retried.text).toBe(false);
      expect(retried.data).toMatchObject({ tabId, title: 'Page A' });
    } finally {
      await host.stop();
    }
  });
});

describe('cookies across host restarts', () => {
  it('persist in the shared posture’s profile', async () => {
    const home = await temp.make('vmark-settings-home-');
    await settings(home, { posture: 'shared' });
    const first = await startHost(home, 'accept');
    try {
      await call(first.client, 'browser', { action: 'open', url: `${pages.origin}/set-cookie` });
      expect(
        (await call(first.client, 'browser', { action: 'navigate', url: `${pages.origin}/show-cookie` }))
          .data,
      ).toMatchObject({
        title: 'cookie: kept=yes',
      });
    } finally {
      await first.stop();
    }
    const second = await startHost(home, 'accept');
    try {
      expect(
        (await call(second.client, 'browser', { action: 'open', url: `${pages.origin}/show-cookie` })).data,
      ).toMatchObject({
        title: 'cookie: kept=yes',
      });
    } finally {
      await second.stop();
    }
  });

  it('are shared by sandbox tabs while the host runs, and gone after a restart', async () => {
    const home = await temp.make('vmark-settings-home-');
    const first = await startHost(home);
    try {
      await call(first.client, 'browser', { action: 'open', url: `${pages.origin}/set-cookie` });
      expect(
        (await call(first.client, 'browser', { action: 'open', url: `${pages.origin}/show-cookie` })).data,
      ).toMatchObject({
        title: 'cookie: kept=yes',
      });
    } finally {
      await first.stop();
    }
    const second = await startHost(home);
    try {
      expect(
        (await call(second.client, 'browser', { action: 'open', url: `${pages.origin}/show-cookie` })).data,
      ).toMatchObject({
        title: 'cookie: none',
      });
    } finally {
      await second.stop();
    }
  });
});
