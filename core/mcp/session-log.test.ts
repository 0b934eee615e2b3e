import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { HostLog, LogLevel } from '@vmark/sdk';
import { defineAction, defineTool, HostLogToken, requiredString, z } from '@vmark/sdk';
import { listenToLog, startTestHost, type TestHost, toolPlugin } from '@vmark/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { LOG_LEVELS } from '../log/log-levels.js';

/*
 * The MCP logging capability and ToolCall.progress, through real MCP clients of a real host:
 * a plugin speaks through its HostLog, each connection hears it at the level its client set.
 */

/** What one client is told, and a way to wait for the message saying `data`. */
function listen(client: Client) {
  const log = listenToLog(client);
  return { heard: log.messages, told: (data: string) => log.told((m) => m.data === data) };
}

let log: HostLog;
const speaker = defineTool({
  name: 'speaker',
  title: 'Speaker',
  description: 'Says things through the host log and reports progress',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  actions: {
    say: defineAction({
      args: { message: requiredString('message'), toCaller: z.boolean().optional() },
      run: ({ message, toCaller }, call) => {
        for (const level of LOG_LEVELS)
          log.log(
            level,
            `${message} at ${level}`,
            toCaller ? { connectionId: call.caller.connectionId } : undefined,
          );
        return { said: LOG_LEVELS.length };
      },
    }),
    count: defineAction({
      args: { n: z.number().int() },
      run: ({ n }, call) => {
        for (let i = 1; i <= n; i++) call.progress(i, n, `step ${i} of ${n}`);
        return { counted: n };
      },
    }),
  },
});
const speakerPlugin = toolPlugin('speaker', [speaker], (context) => {
  log = context.get(HostLogToken);
});

let kit: TestHost | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

describe('MCP logging', () => {
  it('declares the logging capability and answers logging/setLevel with {}', async () => {
    kit = await startTestHost({ plugins: [speakerPlugin] });
    expect(kit.client.getServerCapabilities()?.logging).toEqual({});
    expect(await kit.client.setLoggingLevel('warning')).toEqual({});
  });

  it('refuses a level MCP does not name, and keeps the one set before', async () => {
    kit = await startTestHost({ plugins: [speakerPlugin] });
    const { heard, told } = listen(kit.client);
    await kit.client.setLoggingLevel('error');
    await expect(
      kit.client.request(
        { method: 'logging/setLevel', params: { level: 'verbose' as LogLevel } },
        z.object({}),
      ),
    ).rejects.toThrow(
      /-32602.*level must be one of: debug, info, notice, warning, error, critical, alert, emergency/,
    );
    await kit.call('speaker', { action: 'say', message: 'after' });
    await told('after at emergency');
    expect(heard.map((m) => m.level)).toEqual(['error', 'critical', 'alert', 'emergency']);
  });

  it('tells each client what is at or above the level it set; one that set none, info and above', async () => {
    kit = await startTestHost({ plugins: [speakerPlugin] });
    const [warned, unset, verbose] = [kit.client, await kit.connect('unset'), await kit.connect('verbose')];
    const heard = [listen(warned), listen(unset), listen(verbose)];
    await warned.setLoggingLevel('warning');
    await verbose.setLoggingLevel('debug');
    // Host-wide: said during one client's call, told to every connected client.
    expect((await kit.call('speaker', { action: 'say', message: 'hello' })).data).toEqual({ said: 8 });
    await Promise.all(heard.map((h) => h.told('hello at emergency')));
    const levels = heard.map((h) => h.heard.map((m) => m.level));
    expect(levels[0]).toEqual(['warning', 'error', 'critical', 'alert', 'emergency']);
    expect(levels[1]).toEqual(LOG_LEVELS.slice(1));
    expect(levels[2]).toEqual(LOG_LEVELS);
    expect(heard[2]!.heard[0]).toEqual({ level: 'debug', logger: 'speaker', data: 'hello at debug' });
  });

  it('tells a message about one connection’s call to that connection only', async () => {
    kit = await startTestHost({ plugins: [speakerPlugin] });
    const other = await kit.connect('other');
    const [mine, theirs] = [listen(kit.client), listen(other)];
    await other.setLoggingLevel('debug');
    await kit.call('speaker', { action: 'say', message: 'private', toCaller: true });
    await kit.call('speaker', { action: 'say', message: 'public' });
    await Promise.all([mine.told('public at emergency'), theirs.told('public at emergency')]);
    expect(mine.heard.filter((m) => String(m.data).startsWith('private'))).toHaveLength(7);
    expect(theirs.heard.filter((m) => String(m.data).startsWith('private'))).toEqual([]);
  });

  it('tells a client that sets a level what went wrong while the host started, once', async () => {
    const failing = defineTool({ ...speaker, name: 'failing', title: 'Failing' });
    const broken = toolPlugin('broken', [failing], () => {
      throw new Error('cannot start: no engine');
    });
    kit = await startTestHost({ plugins: [speakerPlugin, broken] });
    const strict = await kit.connect('strict');
    const [first, second] = [listen(kit.client), listen(strict)];
    const said = 'plugin broken: activation failed: cannot start: no engine';
    // Told before the answer to setLevel, on its way.
    await kit.client.setLoggingLevel('error');
    expect(first.heard).toEqual([{ level: 'error', logger: 'plugins', data: said }]);
    await kit.client.setLoggingLevel('debug');
    expect(first.heard).toHaveLength(1);
    // Below the level a client set: not told.
    await strict.setLoggingLevel('critical');
    expect(second.heard).toEqual([]);
  });
});

describe('ToolCall.progress', () => {
  it('sends notifications/progress for the client’s token: rising, at most ~10 a second', async () => {
    kit = await startTestHost({ plugins: [speakerPlugin] });
    const reports: { progress: number; total?: number; message?: string }[] = [];
    const result = await kit.client.callTool(
      { name: 'speaker', arguments: { action: 'count', n: 1000 } },
      undefined,
      {
        onprogress: (p) => reports.push(p),
      },
    );
    expect(result.isError).toBeFalsy();
    expect(reports[0]).toEqual({ progress: 1, total: 1000, message: 'step 1 of 1000' });
    // A thousand reports in one synchronous loop: the first goes, the rest wait their turn and
    // are dropped when the call answers.
    expect(reports.length).toBeLessThan(1000);
    expect(reports.map((r) => r.progress)).toEqual([...reports.map((r) => r.progress)].sort((a, b) => a - b));
  });

  it('sends none when the client passed no progressToken', async () => {
    kit = await startTestHost({ plugins: [speakerPlugin] });
    const unasked: unknown[] = [];
    // Replaces the SDK's own progress routing: every notifications/progress lands here.
    kit.client.setNotificationHandler(ProgressNotificationSchema, (n) => void unasked.push(n));
    await kit.call('speaker', { action: 'count', n: 10 });
    await kit.call('speaker', { action: 'say', message: 'sync point' });
    expect(unasked).toEqual([]);
  });
});
