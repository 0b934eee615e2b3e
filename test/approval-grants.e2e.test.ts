import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, connectStdio, runCli, TempDirs } from './support/cli.js';
import { type LocalPage, serveLocalPage } from './support/local-page.js';

/*
 * Standing grants and once-approvals from end to end: the built `vmark mcp` with a real SDK
 * client over stdio, Chromium, a page on 127.0.0.1, and `vmark approvals` from a terminal.
 */

const temp = new TempDirs();
let server: LocalPage;
let origin: string;
let home: string;
let client: Client | undefined;

const PAGE = `<!doctype html><title>App</title><button id="go">Go</button>`;

beforeAll(async () => {
  server = await serveLocalPage(PAGE);
  origin = server.origin;
});
afterEach(async () => {
  await client?.close();
  client = undefined;
});
afterAll(async () => {
  server.close();
  await temp.cleanup();
});

async function start(answers?: ElicitResult[]): Promise<{ asked: string[] }> {
  home = await temp.make();
  const asked: string[] = [];
  ({ client } = await connectStdio([], home, {
    env: { VMARK_BROWSER_ALLOW_PRIVATE: '1' },
    ...(answers
      ? {
          elicitation: (params) => {
            asked.push(params.message);
            return answers.shift() ?? { action: 'decline' };
          },
        }
      : {}),
  }));
  return { asked };
}

const browser = (args: Record<string, unknown>) => call(client!, 'browser', args);
const vmark = (...args: string[]) => runCli(['approvals', ...args], { VMARK_HOME: home });
const STYLE = { action: 'style', selector: '#go', addClasses: ['marked'] };

describe('a standing grant from the elicitation form', () => {
  it('is listed by vmark approvals grants, and once revoked there is no longer honoured', async () => {
    const { asked } = await start([{ action: 'accept', content: { allow: 'site' } }]);
    expect((await browser({ action: 'open', url: `${origin}/` })).isError).toBe(false);
    expect((await browser(STYLE)).isError).toBe(false);
    expect((await browser({ ...STYLE, addClasses: ['again'] })).isError).toBe(false);
    expect(asked).toHaveLength(1);

    const listed = await vmark('grants', '--json');
    expect(listed.code).toBe(0);
    const grants = JSON.parse(listed.stdout) as { id: string; operation: string; origin: string }[];
    expect(grants).toEqual([
      expect.objectContaining({
        operation: 'style',
        origin,
        clientName: 'vmark-e2e',
        grantedBy: 'elicitation',
      }),
    ]);
    const revoked = await vmark('revoke', grants[0]!.id);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`revoked ${grants[0]!.id}: style on ${origin}`);

    // The next call is asked again (and declined), and nothing is listed any more.
    const after = await browser({ ...STYLE, addClasses: ['third'] });
    expect(after.isError).toBe(true);
    expect(after.text).toMatch(/^the user declined 'style'/);
    expect(asked).toHaveLength(2);
    expect((await vmark('grants')).stdout).toBe('no standing grants\n');
  });
});

describe('a once-approval from the terminal', () => {
  it('is used by the retried call on the same page', async () => {
    await start();
    await browser({ action: 'open', url: `${origin}/app` });
    const pending = await browser(STYLE);
    expect(pending.text).toMatch(
      /^approval required: 'style' on http:\/\/127\.0\.0\.1:\d+\/app\. Ask the user/,
    );
    expect(pending.data).toMatchObject({ needsApproval: true, retry: { action: 'style', tabId: 'tab-1' } });
    expect((await vmark('allow', pending.data.requestId as string)).code).toBe(0);
    expect((await browser(STYLE)).data).toMatchObject({ elements: 1 });
  });

  it('is spent by an in-page (SPA) navigation of the tab before the retry', async () => {
    await start();
    await browser({ action: 'open', url: `${origin}/app` });
    const pending = await browser(STYLE);
    expect((await vmark('allow', pending.data.requestId as string)).code).toBe(0);
    // A same-document navigation (no load): still a new page generation.
    const navigated = await browser({ action: 'navigate', url: `${origin}/app#next` });
    expect(navigated.isError, navigated.text).toBe(false);
    const retried = await browser(STYLE);
    expect(retried.text).toMatch(/^approval required: 'style'/);
    expect(retried.data.requestId).not.toBe(pending.data.requestId);
    // The allowance given for the page before is never used: it stays listed, unused, until it expires.
    const listed = JSON.parse((await vmark('list', '--json')).stdout) as { id: string; status: string }[];
    expect(listed).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: pending.data.requestId, status: 'allowed' })]),
    );
  });
});
