import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readManifest, startTestHost, type TestHost } from '@vmark/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import browserPlugin from '../src/index.js';
import { setBrowserEnv } from './browser-rig.js';
import { type FixtureServer, HOST_RULES, serveFixtures } from './fixture-server.js';
import { PAGES } from './perception-fixtures.js';

/*
 * The perception actions as an MCP client sees them: the browser plugin in a real host, its
 * own Chromium behind the guard proxy (private addresses allowed for the fixture server, the
 * two fixture names mapped to it), one host and one browser for the file.
 */

const manifest = readManifest(new URL('../manifest.json', import.meta.url)) as {
  contributes: { tools: { name: string; actions: string[] }[] };
};

let kit: TestHost;
let fixtures: FixtureServer;
let restoreEnv: () => void = () => {};

beforeAll(async () => {
  fixtures = await serveFixtures(PAGES);
  restoreEnv = setBrowserEnv({ VMARK_BROWSER_ALLOW_PRIVATE: '1', VMARK_BROWSER_HOST_RULES: HOST_RULES });
  kit = await startTestHost({ plugins: [{ manifest, plugin: browserPlugin }] });
}, 60_000);

afterAll(async () => {
  await kit?.dispose();
  await fixtures?.close();
  restoreEnv();
});

async function open(path: string): Promise<string> {
  const opened = await kit.call('browser', { action: 'open', url: fixtures.url(path) });
  expect(opened.isError, opened.text).toBe(false);
  return (opened.data as { tabId: string }).tabId;
}

describe('the perception actions over MCP', () => {
  it('are all the seed lists, in its order, in the tools and in the manifest alike', async () => {
    const { tools } = await kit.client.listTools();
    const actions = (name: string) =>
      (tools.find((t) => t.name === name)?.inputSchema.properties?.action as { enum: string[] }).enum;
    // Every action of the seed, in its order (vmark-notes §1.1).
    const seed: Record<string, string[]> = {
      browser: [
        'act',
        'open',
        'navigate',
        'close',
        'style',
        'execute_js',
        'session_save',
        'session_load',
        'console_clear',
        'workflow_run',
        'workflow_cancel',
        'workflow_record',
      ],
      browser_read: [
        'read',
        'screenshot',
        'query',
        'extract',
        'console',
        'wait',
        'wait_for',
        'workflow_status',
      ],
    };
    for (const name of ['browser', 'browser_read']) expect(actions(name)).toEqual(seed[name]);
    for (const tool of manifest.contributes.tools) expect(actions(tool.name)).toEqual(tool.actions);
  });

  it('read answers {url, snapshot} with frames of another site inside, through the guard proxy', async () => {
    const tabId = await open('/frames');
    const read = await kit.call('browser_read', { action: 'read', tabId });
    expect(read.isError, read.text).toBe(false);
    const { url, snapshot } = read.data as {
      url: string;
      snapshot: { role: string; name: string; ref?: string }[];
    };
    expect(url).toBe(fixtures.url('/frames'));
    const buttons = snapshot.filter((e) => e.role === 'button').map((e) => e.name);
    expect(buttons).toEqual(['Inside the frame', 'Inside the frame', 'After the frames']);
    await kit.call('browser', { action: 'close', tabId });
  });

  it('screenshot answers a line of text and a JPEG', async () => {
    const tabId = await open('/form');
    const result = (await kit.client.callTool({
      name: 'browser_read',
      arguments: { action: 'screenshot', tabId },
    })) as CallToolResult;
    expect(result.isError).toBeUndefined();
    expect(result.content[0]).toEqual({ type: 'text', text: `Screenshot of ${fixtures.url('/form')}` });
    expect(result.content[1]).toMatchObject({
      type: 'image',
      mimeType: 'image/jpeg',
      data: expect.stringMatching(/^\/9j\//),
    });
    await kit.call('browser', { action: 'close', tabId });
  });

  it('query refuses a missing, blank or invalid selector and bad fields, with clear messages', async () => {
    const tabId = await open('/query');
    const message = async (args: Record<string, unknown>) => {
      const out = await kit.call('browser_read', { action: 'query', tabId, ...args });
      expect(out.isError).toBe(true);
      return out.text;
    };
    expect(await message({})).toBe('selector (string) is required');
    expect(await message({ selector: '   ' })).toContain('query requires a non-empty CSS `selector`');
    expect(await message({ selector: 'li[' })).toMatch(/^query: "li\[" is not a valid CSS selector \(/);
    expect(await message({ selector: 'li', fields: { styles: ['color; x'] } })).toMatch(/CSS property names/);
    expect(await message({ selector: 'li', fields: { everything: true } })).toMatch(
      /fields must be an object/,
    );
    const ok = await kit.call('browser_read', {
      action: 'query',
      tabId,
      selector: 'li.item',
      fields: { box: true },
    });
    expect(ok.data).toMatchObject({ count: 60, truncated: true });
    await kit.call('browser', { action: 'close', tabId });
  });

  it('wait_for takes exactly one target, refuses a stale ref with its token, and answers {matched}', async () => {
    const tabId = await open('/spa');
    const text = async (args: Record<string, unknown>) =>
      (await kit.call('browser_read', { action: 'wait_for', tabId, ...args })).text;
    expect(await text({})).toBe(
      'wait_for needs exactly one of: ref, role (+optional name), text, or urlContains',
    );
    expect(await text({ name: 'x' })).toBe('wait_for: `name` is only valid together with `role`');
    expect(await text({ urlContains: '/a?b' })).toMatch(/cannot contain `\?` or `#`/);
    expect(await text({ text: 'x', timeoutMs: 0 })).toContain('timeoutMs must be an integer from 1 to 9000');
    const read = await kit.call('browser_read', { action: 'read', tabId });
    const button = (read.data as { snapshot: { role: string; ref?: string }[] }).snapshot.find(
      (e) => e.role === 'button',
    )!;
    const matched = await kit.call('browser_read', {
      action: 'wait_for',
      tabId,
      ref: button.ref,
      timeoutMs: 2000,
    });
    expect(matched.data).toEqual({ matched: true, ref: button.ref });
    const none = await kit.call('browser_read', {
      action: 'wait_for',
      tabId,
      text: 'not on the page',
      timeoutMs: 200,
    });
    expect(none.data).toEqual({ matched: false });
    await kit.call('browser', { action: 'navigate', tabId, url: fixtures.url('/form') });
    const stale = await kit.call('browser_read', {
      action: 'wait_for',
      tabId,
      ref: button.ref,
      timeoutMs: 200,
    });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/^STALE_REF: ref e\d+ is from an earlier page generation/);
    expect(stale.structured).toMatchObject({ error: 'STALE_REF', ref: button.ref });
    await kit.call('browser', { action: 'close', tabId });
  });

  it('console answers {entries, url}; console_clear the same, then drains; too much text gets the console hint', async () => {
    const tabId = await open('/console');
    const first = await kit.call('browser_read', { action: 'console', tabId });
    expect(first.data).toMatchObject({
      url: fixtures.url('/console'),
      entries: expect.arrayContaining([{ level: 'info', text: 'an info' }]),
    });
    const cleared = await kit.call('browser', { action: 'console_clear', tabId });
    expect((cleared.data as { entries: unknown[] }).entries.length).toBeGreaterThanOrEqual(
      (first.data as { entries: unknown[] }).entries.length,
    );
    expect((await kit.call('browser_read', { action: 'console', tabId })).data).toEqual({
      entries: [],
      url: fixtures.url('/console'),
    });
    await kit.call('browser', { action: 'navigate', tabId, url: fixtures.url('/loud') });
    const loud = await kit.call('browser_read', { action: 'console', tabId });
    expect(loud.data).toMatchObject({ truncated: true });
    const note = (loud.data as { truncation_note: string }).truncation_note;
    expect(note).toContain('DO NOT call `browser` {action: "console_clear"} to get it');
    await kit.call('browser', { action: 'close', tabId });
  });

  it('refuses to read a tab that is gone', async () => {
    const tabId = await open('/form');
    await kit.call('browser', { action: 'close', tabId });
    const read = await kit.call('browser_read', { action: 'read', tabId });
    expect(read.isError).toBe(true);
    expect(read.text).toMatch(/^TAB_CLOSED: /);
  });
});
