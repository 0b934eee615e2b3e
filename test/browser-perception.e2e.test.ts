import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureServer, HOST_RULES, serveFixtures } from '../plugins/browser/test/fixture-server.js';
import { PAGES } from '../plugins/browser/test/perception-fixtures.js';
import { call, connectStdio, TempDirs } from './support/cli.js';

/*
 * Perception end to end: the built CLI (`vmark mcp`) over stdio with the real SDK client, its
 * own headless Chromium behind the guard proxy, fixture pages on 127.0.0.1 under two site names.
 */

const temp = new TempDirs();
let client: Client;
let fixtures: FixtureServer;

beforeAll(async () => {
  fixtures = await serveFixtures(PAGES);
  ({ client } = await connectStdio([], await temp.make('vmark-home-'), {
    env: { VMARK_BROWSER_ALLOW_PRIVATE: '1', VMARK_BROWSER_HOST_RULES: HOST_RULES },
  }));
}, 60_000);

afterAll(async () => {
  await client?.close();
  await fixtures?.close();
  await temp.cleanup();
});

type Entry = { role: string; name: string; ref?: string; checked?: boolean; upload?: true };

describe('browser perception through vmark mcp', () => {
  it('reads a form, queries it, waits for it, shoots it, and reports its console', async () => {
    const opened = await call(client, 'browser', { action: 'open', url: fixtures.url('/form') });
    expect(opened.isError, opened.text).toBe(false);
    const tabId = opened.data.tabId as string;

    const read = await call(client, 'browser_read', { action: 'read', tabId });
    const snapshot = read.data.snapshot as Entry[];
    const submit = snapshot.find((e) => e.role === 'button' && e.name === 'Create account');
    expect(submit?.ref).toMatch(/^e\d+$/);
    expect(snapshot.find((e) => e.role === 'checkbox')).toMatchObject({
      name: 'Send me news',
      checked: true,
    });
    expect(snapshot.some((e) => e.upload === true)).toBe(true);

    const queried = await call(client, 'browser_read', { action: 'query', tabId, selector: '#submit' });
    expect(queried.data).toEqual({
      count: 1,
      elements: [{ ref: submit!.ref, tag: 'button', text: 'Create account' }],
    });

    const waited = await call(client, 'browser_read', {
      action: 'wait_for',
      tabId,
      role: 'button',
      name: 'create account',
      timeoutMs: 3000,
    });
    expect(waited.data).toEqual({ matched: true, ref: submit!.ref });

    const shot = (await client.callTool({
      name: 'browser_read',
      arguments: { action: 'screenshot', tabId },
    })) as CallToolResult;
    expect(shot.content.map((c) => c.type)).toEqual(['text', 'image']);
    expect(shot.content[1]).toMatchObject({ mimeType: 'image/jpeg' });

    const console_ = await call(client, 'browser_read', { action: 'console', tabId });
    expect(console_.data).toEqual({ entries: [], url: fixtures.url('/form') });
    await call(client, 'browser', { action: 'navigate', tabId, url: fixtures.url('/console') });
    const cleared = await call(client, 'browser', { action: 'console_clear', tabId });
    expect(cleared.data.entries).toEqual(expect.arrayContaining([{ level: 'warn', text: 'a warning' }]));
    expect((await call(client, 'browser_read', { action: 'console', tabId })).data.entries).toEqual([]);

    expect((await call(client, 'browser', { action: 'close', tabId })).data).toMatchObject({ closed: true });
  });

  it('reads into a cross-site iframe and refuses the refs of a page that navigated', async () => {
    const opened = await call(client, 'browser', { action: 'open', url: fixtures.url('/frames') });
    const tabId = opened.data.tabId as string;
    const read = await call(client, 'browser_read', { action: 'read', tabId });
    const snapshot = read.data.snapshot as Entry[];
    const inFrames = snapshot.filter((e) => e.name === 'Inside the frame');
    expect(inFrames).toHaveLength(2);
    await call(client, 'browser', { action: 'navigate', tabId, url: fixtures.url('/spa') });
    const stale = await call(client, 'browser_read', {
      action: 'wait_for',
      tabId,
      ref: inFrames[1]!.ref,
      timeoutMs: 100,
    });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/^STALE_REF: /);
    await call(client, 'browser', { action: 'close', tabId });
  });
});
