import type { ChildProcess } from 'node:child_process';
import { readFile, realpath, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesHolding, TYPED } from '../plugins/browser/test/typed-values.js';
import { startCdpChromium } from './support/cdp-chromium.js';
import { CdpPerson } from './support/cdp-person.js';
import { call, connectStdio, runCli, TempDirs } from './support/cli.js';

/*
 * workflow_record through the built CLI and the real MCP SDK client (ADR 45): the AI asks to
 * record, the person allows it (the client's elicitation) and fills in a form by hand — in a
 * browser vmark drives over CDP, with real input of their own (support/cdp-person.ts) — and the
 * AI stops the recording and saves the workflow with document.write. Nothing the person typed
 * is anywhere: not in the workflow, not in any MCP message, not in any file of $VMARK_HOME
 * (the browser's own profile folder included) or of the workspace.
 */

const temp = new TempDirs();
let server: Server;
let origin: string;
let chromium: ChildProcess;
let endpoint: string;
let home: string;
let workspace: string;
let flow: string;
let client: Client;
/** Every URL the page server was asked for. */
const requests: string[] = [];
/** The recorded workflow, replayed by the second test. */
let recorded = '';
/** Everything the host said to the client: tool results and elicitation questions. */
const said: string[] = [];

const FORM = `<!doctype html><title>Sign up</title>
<form action="/welcome" method="get">
  <label>Full name <input name="fullname"></label>
  <label>Search <input type="search" name="q"></label>
  <label>Password <input type="password" name="pw" autocomplete="new-password"></label>
  <label>Code <input name="code" autocomplete="one-time-code"></label>
  <button type="submit">Create account</button>
</form>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(req.url?.startsWith('/form') ? FORM : '<!doctype html><title>Welcome</title><h1>Welcome</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  home = await realpath(await temp.make('vmark-record-home-'));
  workspace = await realpath(await temp.make('vmark-record-vault-'));
  flow = path.join(workspace, 'signup.workflow.md');
  await writeFile(flow, '');
  // The browser keeps its profile in $VMARK_HOME, so that its files are searched too.
  ({ child: chromium, endpoint } = await startCdpChromium(path.join(home, 'chromium')));
  ({ client } = await connectStdio(['--workspace', workspace, '--open', flow], home, {
    env: { VMARK_BROWSER_ENDPOINT: endpoint, VMARK_BROWSER_ALLOW_PRIVATE: '1' },
    elicitation: 'accept',
    onElicit: (message) => said.push(message),
  }));
}, 60_000);

afterAll(async () => {
  await client?.close();
  if (chromium?.exitCode === null) {
    // Its profile folder is removed below: only once it has stopped writing there.
    const exited = new Promise((resolve) => chromium.once('exit', resolve));
    chromium.kill('SIGKILL');
    await exited;
  }
  server?.close();
  await temp.cleanup();
});

async function ask(name: string, args: Record<string, unknown>) {
  const out = await call(client, name, args);
  said.push(out.text, JSON.stringify(out.data));
  return out;
}

describe('workflow_record end to end', () => {
  it('records a form filled in by hand as a workflow of locators, saved with document.write, with no typed value anywhere', async () => {
    const opened = await ask('browser', { action: 'open', url: `${origin}/form` });
    expect(opened.isError, opened.text).toBe(false);
    const tabId = opened.data.tabId as string;
    const started = await ask('browser', {
      action: 'workflow_record',
      tabId,
      recordOp: 'start',
      site: 'signup',
    });
    expect(started.data).toEqual({ status: 'recording', tabId, site: 'signup' });
    expect(
      said.some((message) => message.includes('record') && message.includes('never what is typed')),
    ).toBe(true);

    const person = await CdpPerson.at(endpoint, '/form');
    try {
      await person.typeInto('input[name=fullname]', TYPED.name);
      await person.typeInto('input[name=q]', TYPED.search);
      await person.typeInto('input[name=pw]', TYPED.password);
      await person.typeInto('input[name=code]', TYPED.code);
      await person.loadsAfter(() => person.click('button[type=submit]'));
    } finally {
      person.close();
    }
    // The AI then goes to a page with something typed into its URL's query.
    const went = await ask('browser', {
      action: 'navigate',
      tabId,
      url: `${origin}/welcome?ref=${TYPED.url}`,
    });
    expect(went.isError, went.text).toBe(false);

    const stopped = await ask('browser', { action: 'workflow_record', tabId, recordOp: 'stop' });
    expect(stopped.isError, stopped.text).toBe(false);
    const source = stopped.data.source as string;
    recorded = source;
    expect(source).toBe(
      [
        '---',
        'site: signup',
        'inputs: [Full_name, Search]',
        '---',
        `1. action: navigate to ${origin}/form`,
        '2. action: type {Full_name} into "Full name" (textbox)',
        '3. action: type {Search} into "Search" (searchbox)',
        '4. confirm: enter "Password"',
        '5. confirm: enter "Code"',
        '6. action: click "Create account" (button)',
        `7. action: navigate to ${origin}/welcome`,
        '',
      ].join('\n'),
    );
    expect(stopped.data).toMatchObject({ inputs: ['Full_name', 'Search'], eventCount: 7, capped: false });
    // The form went out with every value in its URL: the person did type them.
    expect(requests.some((url) => url.includes(TYPED.password) && url.includes(TYPED.code))).toBe(true);

    const read = await ask('document', { action: 'read', tabId: 'tab-1' });
    const write = await ask('document', {
      action: 'write',
      tabId: 'tab-1',
      content: source,
      expected_revision: read.data.revision,
    });
    expect(write.data).toMatchObject({ saved: true });
    expect(await readFile(flow, 'utf8')).toBe(source);
    await ask('browser', { action: 'close', tabId });

    // A search that finds what is there: a file of the workspace that does hold a canary.
    await writeFile(path.join(workspace, 'canary.txt'), 'Canary-Gecko-5150');
    expect(await filesHolding('Canary-Gecko-5150', [home, workspace])).toEqual([
      path.join(workspace, 'canary.txt'),
    ]);
    for (const value of Object.values(TYPED)) {
      expect(said.join('\n')).not.toContain(value);
      expect(await filesHolding(value, [home, workspace]), value).toEqual([]);
    }
  });

  it('replays the recorded workflow with new inputs: typed by VMark, the secrets left to the person, submitted once', async () => {
    expect(recorded).not.toBe('');
    const opened = await ask('browser', { action: 'open', url: `${origin}/form` });
    const tabId = opened.data.tabId as string;
    const inputs = { Full_name: 'Grace Hopper', Search: 'compilers' };
    const run = async (args: Record<string, unknown>) => {
      const started = await ask('browser', { action: 'workflow_run', tabId, source: recorded, ...args });
      expect(started.isError, started.text).toBe(false);
      return started.data.runId as string;
    };
    const submitted = () => requests.filter((url) => url.includes('Grace+Hopper')).length;

    // Each typing and clicking step waits on a person, as a hand-issued act would; they allow it
    // from the terminal (no editor window here).
    let runId = await run({ inputs });
    let status = await untilSettled(runId);
    expect(status).toMatchObject({ status: 'paused', reasonCode: 'needs-human', completedSteps: 3 });
    expect(status.reason).toContain('Password');

    // The person does the two confirm: steps by hand, then the AI resumes twice.
    const person = await CdpPerson.at(endpoint, '/form');
    try {
      await person.typeInto('input[name=pw]', 'Replay-Secret-7731');
      await person.typeInto('input[name=code]', '424242');
    } finally {
      person.close();
    }
    runId = await run({ inputs, resumeRunId: runId });
    status = await untilSettled(runId);
    expect(status).toMatchObject({ status: 'paused', reasonCode: 'needs-human' });
    expect(status.reason).toContain('Code');
    runId = await run({ inputs, resumeRunId: runId });
    status = await untilSettled(runId);
    expect(status).toMatchObject({ status: 'completed', completedSteps: 2, skippedSteps: 5 });
    expect(status.url).toBe(`${origin}/welcome`);
    expect(submitted()).toBe(1);
    const sent = requests.find((url) => url.includes('Grace+Hopper'))!;
    expect(new URL(sent, origin).searchParams.get('q')).toBe('compilers');
    expect(new URL(sent, origin).searchParams.get('pw')).toBe('Replay-Secret-7731');
    said.push(JSON.stringify(status));
    await ask('browser', { action: 'close', tabId });
  });
});

interface RunStatus {
  status: string;
  reasonCode?: string;
  reason?: string;
  completedSteps: number;
  url: string;
  pendingApproval?: unknown;
}

/** Polls the run, allowing each step's approval from the terminal, until it stops running. */
async function untilSettled(runId: string): Promise<RunStatus> {
  for (;;) {
    const status = (await call(client, 'browser_read', { action: 'workflow_status', runId }))
      .data as unknown as RunStatus;
    if (status.status !== 'running') return status;
    if (status.pendingApproval !== undefined) {
      const listed = JSON.parse(
        (await runCli(['approvals', 'list', '--json'], { VMARK_HOME: home })).stdout,
      ) as { id: string; status: string }[];
      for (const request of listed.filter((r) => r.status === 'waiting'))
        await runCli(['approvals', 'allow', request.id], { VMARK_HOME: home });
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
