import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PageServer, startPageServer } from '../plugins/browser/test/page-server.js';
import { call, connectStdio, runCli, TempDirs } from './support/cli.js';

/*
 * A workflow run through the built CLI with the real MCP SDK client over stdio (issue 16): it
 * answers at once, is polled with workflow_status, waits on a person for its click (asked as a
 * hand-issued act is: no window and no elicitation here, so `vmark approvals allow`), and runs
 * to completion. Status and cancel still answer with the browser turned off; a run does not.
 */

const temp = new TempDirs();
let pages: PageServer;
let client: Client;
let home: string;

interface Status {
  status: string;
  completedSteps: number;
  pendingApproval?: { operation: string; url: string; target?: string };
  stepResults: { index: number; status: string; data?: Record<string, unknown> }[];
  url: string;
}

beforeAll(async () => {
  pages = await startPageServer();
  pages.html(
    '/shop',
    '<title>Shop</title><main><p id="log"></p>' +
      `<button onclick="document.getElementById('log').textContent += 'bought;'">Buy</button></main>`,
  );
  home = await temp.make('vmark-wfrun-home-');
  ({ client } = await connectStdio([], home, { env: { VMARK_BROWSER_ALLOW_PRIVATE: '1' } }));
});
afterAll(async () => {
  await client?.close();
  await pages?.close();
  await temp.cleanup();
});

const status = async (runId: string) =>
  (await call(client, 'browser_read', { action: 'workflow_status', runId })).data as unknown as Status;

async function until(runId: string, done: (s: Status) => boolean): Promise<Status> {
  for (;;) {
    const now = await status(runId);
    if (done(now)) return now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('workflow_run through the built CLI', () => {
  it('runs to completion, its click approved by a person at the terminal; status is polled', async () => {
    const opened = await call(client, 'browser', { action: 'open', url: `${pages.origin}/shop` });
    const { tabId } = opened.data as { tabId: string };
    const source =
      '---\nsite: shop\n---\n' +
      `1. action: navigate to ${pages.origin}/shop\n2. action: click "Buy" (button)\n3. extract: content\n`;
    const started = await call(client, 'browser', { action: 'workflow_run', tabId, source });
    expect(started.isError, started.text).toBe(false);
    expect(started.data).toEqual({
      runId: `wfrun-${tabId}-1`,
      steps: 3,
      firstStep: 'step-1',
      status: 'running',
    });
    const runId = `wfrun-${tabId}-1`;

    const waiting = await until(runId, (s) => s.pendingApproval !== undefined);
    expect(waiting).toMatchObject({
      status: 'running',
      completedSteps: 1,
      pendingApproval: { operation: 'click', url: pages.origin, target: 'button "Buy"' },
    });
    const listed = JSON.parse(
      (await runCli(['approvals', 'list', '--json'], { VMARK_HOME: home })).stdout,
    ) as {
      id: string;
      subject: string;
      status: string;
    }[];
    expect(listed).toHaveLength(1);
    expect(listed[0]!.subject).toMatch(/^click button “Buy” — on http:\/\/127\.0\.0\.1:\d+\/shop/);
    expect((await runCli(['approvals', 'allow', listed[0]!.id], { VMARK_HOME: home })).code).toBe(0);

    const done = await until(runId, (s) => s.status !== 'running');
    expect(done).toMatchObject({ status: 'completed', completedSteps: 3, url: `${pages.origin}/shop` });
    expect(done.stepResults[2]).toMatchObject({ index: 3, status: 'success', data: { title: 'Shop' } });
    const log = await call(client, 'browser_read', { action: 'query', tabId, selector: '#log' });
    expect((log.data as { elements: { text: string }[] }).elements[0]!.text).toBe('bought;');

    // With the browser turned off, a run's status and cancel still answer; a new run does not.
    await writeFile(path.join(home, 'settings.json'), JSON.stringify({ browser: { enabled: false } }));
    expect(await status(runId)).toMatchObject({ status: 'completed' });
    expect((await call(client, 'browser', { action: 'workflow_cancel', runId })).data).toEqual({
      runId,
      status: 'completed',
      result: 'already-terminal',
    });
    const refused = await call(client, 'browser', { action: 'workflow_run', tabId, source });
    expect(refused.data).toMatchObject({ error: 'BROWSER_DISABLED' });
    await writeFile(path.join(home, 'settings.json'), JSON.stringify({ browser: { enabled: true } }));
    await call(client, 'browser', { action: 'close', tabId });
  });
});
