import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { personHostForFile } from './person-desk.js';
import { RECORDER_PAGES } from './recorder-pages.js';

/*
 * `browser workflow_record` as an MCP client sees it (ADR 45): the browser plugin in a real host
 * with the test as the person at the editor; what a recording captures is recorder.test.ts's.
 */

const desk = personHostForFile((server) => {
  for (const [route, html] of Object.entries(RECORDER_PAGES)) server.html(route, html);
});
async function open(route: string): Promise<string> {
  const opened = await desk.kit.call('browser', { action: 'open', url: `${desk.server.origin}${route}` });
  expect(opened.isError, opened.text).toBe(false);
  return (opened.data as { tabId: string }).tabId;
}

const record = (args: Record<string, unknown>) =>
  desk.kit.call('browser', { action: 'workflow_record', ...args });

describe('workflow_record', () => {
  it('records what is done in the tab between start and stop, for the connection a person allowed it for', async () => {
    const tabId = await open('/clicks');
    const started = await record({ tabId, recordOp: 'start', site: 'taps' });
    expect(started.isError, started.text).toBe(false);
    expect(started.data).toEqual({ status: 'recording', tabId, site: 'taps' });
    const tapped = await desk.kit.call('browser', {
      action: 'act',
      tabId,
      operation: 'click',
      role: 'button',
      name: 'Tap',
    });
    expect(tapped.isError, tapped.text).toBe(false);
    expect(desk.person.asked.map((q) => q.request.operation)).toEqual(['record', 'click']);

    const other = await desk.kit.connect('another-client');
    const theirs = await other.callTool({
      name: 'browser',
      arguments: { action: 'workflow_record', tabId, recordOp: 'stop' },
    });
    expect(theirs).toMatchObject({ isError: true, content: [{ text: 'no active recording for this tab' }] });

    const stopped = await record({ tabId, recordOp: 'stop' });
    expect(stopped.isError, stopped.text).toBe(false);
    expect(stopped.data).toEqual({
      source: `---\nsite: taps\n---\n1. action: navigate to ${desk.server.origin}/clicks\n2. action: click "Tap" (button)\n`,
      inputs: [],
      eventCount: 2,
      capped: false,
    });
    await desk.kit.call('browser', { action: 'close', tabId });
  });

  it('refuses a second start, and a stop with nothing recording, in the words of the original', async () => {
    const tabId = await open('/clicks');
    const none = await record({ tabId, recordOp: 'stop' });
    expect(none).toMatchObject({ isError: true, text: 'no active recording for this tab' });
    await record({ tabId, recordOp: 'start' });
    const again = await record({ tabId, recordOp: 'start' });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/^recording-already-active: tab \S+ is being recorded already/);
    expect(again.structured).toMatchObject({ error: 'recording-already-active', tabId });
    expect(desk.person.asked).toHaveLength(1);
    await desk.kit.call('browser', { action: 'close', tabId });
  });

  it('answers needsApproval, naming the call to retry, while nobody has allowed it', async () => {
    const tabId = await open('/clicks');
    desk.person.answer = 'nobody';
    const waiting = await record({ tabId, recordOp: 'start' });
    expect(waiting.text).toMatch(/^approval required: 'record' on /);
    expect(waiting.structured).toMatchObject({
      needsApproval: true,
      operation: 'record',
      retry: { action: 'workflow_record', tabId, recordOp: 'start' },
    });
    expect((await record({ tabId, recordOp: 'stop' })).text).toBe('no active recording for this tab');
    await desk.kit.call('browser', { action: 'close', tabId });
  });

  it('refuses bad arguments before anyone is asked', async () => {
    const tabId = await open('/clicks');
    expect(await record({ tabId })).toMatchObject({ isError: true, text: 'recordOp (value) is required' });
    for (const recordOp of ['pause', 'START', 3, null]) {
      const out = await record({ tabId, recordOp });
      expect(out.isError, String(recordOp)).toBe(true);
      expect(out.text).toContain('workflow_record requires recordOp: "start" or "stop"');
    }
    const site = await record({ tabId, recordOp: 'start', site: 7 });
    expect(site.text).toContain("site must be a string (the recorded workflow's front-matter site id)");
    const blank = await record({ tabId: '  ', recordOp: 'start' });
    expect(blank.text).toContain('tabId must be a non-empty string when provided');
    expect(desk.person.asked).toHaveLength(0);
    await desk.kit.call('browser', { action: 'close', tabId });
  });

  it('ends with its tab, and refuses a closed tab and a document tab', async () => {
    const tabId = await open('/clicks');
    await record({ tabId, recordOp: 'start' });
    await desk.kit.call('browser', { action: 'close', tabId });
    for (const recordOp of ['start', 'stop']) {
      const out = await record({ tabId, recordOp });
      expect(out.text).toMatch(new RegExp(`^TAB_CLOSED: tab ${tabId} was closed`));
    }
    const workspace = await mkdtemp(path.join(os.tmpdir(), 'vmark-record-'));
    // The one document kind this host has: the browser plugin's own workflow files.
    const flow = path.join(workspace, 'login.workflow.md');
    await writeFile(flow, '---\nsite: shop\n---\n1. extract: content\n');
    await desk.kit.host.workbench.openWorkspace(workspace);
    await desk.kit.host.workbench.openFile(flow);
    const documentTab = desk.kit.host.workbench
      .state()[0]!
      .tabs.find((tab) => tab.kind === 'browser-workflow')!.id;
    const out = await record({ tabId: documentTab, recordOp: 'start' });
    expect(out.text.split('\n')[0]).toBe(
      `INVALID_TAB: tab ${documentTab} is a document tab, not a browser tab`,
    );
    expect(desk.person.asked).toHaveLength(1);
    await rm(workspace, { recursive: true, force: true });
  });
});
