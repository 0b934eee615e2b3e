import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  EmptyResultSchema,
  type Progress,
  ProgressNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { listenToLog, type LogMessage } from '@vmark/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_LEVELS } from '../core/log/log-levels.js';
import { call, CLI, connectStdio, eventually, TempDirs } from './support/cli.js';
import { type Served, startServe } from './support/ui.js';

/*
 * MCP logging and progress from the built CLI, to real SDK clients: on stdio, over HTTP with two
 * connections, and through an attached `vmark mcp` relaying a running `vmark serve`. The host's
 * messages come from real flows (a plugin that fails to start, a conflict on disk, a capture
 * skipped) and from a user plugin that speaks through its HostLog at every level.
 */

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const BROKEN = 'plugin broken: activation failed: no engine';

/** A VMARK_HOME with two user plugins: `speaker` (a line at every level) and `broken` (cannot start). */
async function homeWithPlugins(): Promise<string> {
  const home = await temp.make('vmark-log-home-');
  const plugin = async (id: string, tools: unknown[], main: string) => {
    const dir = path.join(home, 'plugins', id);
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'manifest.json'),
      JSON.stringify({
        id,
        name: id,
        version: '1.0.0',
        engines: { host: '^1.0.0' },
        main: 'main.js',
        contributes: { tools },
      }),
    );
    await writeFile(path.join(dir, 'main.js'), main);
  };
  await plugin(
    'speaker',
    [{ name: 'speaker', title: 'Speaker', annotations: ANNOTATIONS, actions: ['say'] }],
    `import { defineAction, definePlugin, defineTool, HostLogToken, requiredString } from '@vmark/sdk';
const LEVELS = ${JSON.stringify(LOG_LEVELS)};
let log;
const speaker = defineTool({
  name: 'speaker', title: 'Speaker', description: 'Says a line at every level.',
  annotations: ${JSON.stringify(ANNOTATIONS)},
  actions: { say: defineAction({ args: { message: requiredString('message') }, run: ({ message }) => {
    for (const level of LEVELS) log.log(level, message + ' at ' + level);
    return { said: LEVELS.length };
  } }) },
});
export default definePlugin({ activate(context) { log = context.get(HostLogToken); context.registerTool(speaker); } });
`,
  );
  await plugin(
    'broken',
    [],
    `import { definePlugin } from '@vmark/sdk';
export default definePlugin({ activate() { throw new Error('no engine'); } });
`,
  );
  return home;
}

/** A vault with a note and two tracked Markdown documents (a character sheet and a chapter). */
async function vault(): Promise<string> {
  const dir = await realpath(await temp.make('vmark-log-vault-'));
  await mkdir(path.join(dir, 'characters'));
  await mkdir(path.join(dir, 'scenes'));
  await writeFile(path.join(dir, 'notes.md'), 'hello\n');
  await writeFile(path.join(dir, 'characters/elena.md'), '# Elena\n\nA smith.\n');
  await writeFile(path.join(dir, 'scenes/ch3.md'), '# Chapter 3\n');
  return dir;
}

/** The stderr of a `vmark mcp` child, as it arrives. */
function stderrOf(transport: StdioClientTransport): { text: string } {
  const captured = { text: '' };
  transport.stderr?.on('data', (chunk: Buffer) => (captured.text += chunk.toString()));
  return captured;
}

const saying = (data: string) => (m: LogMessage) => m.data === data;
/** 5.1 MiB of Markdown, starting with its own line. */
const big = (first: string) =>
  `# ${first}\n\n` + 'A line of prose that fills the document.\n'.repeat(131_072);

/** A 5.1 MiB `document.write` of the focused tab with a progress token: the progress it was told. */
async function writeLarge(client: Client, content: string): Promise<Progress[]> {
  const read = await call(client, 'document', { action: 'read' });
  const reports: Progress[] = [];
  const result = await client.callTool(
    { name: 'document', arguments: { action: 'write', content, expected_revision: read.data.revision } },
    undefined,
    { onprogress: (p) => reports.push(p) },
  );
  expect(result.isError).toBeFalsy();
  return reports;
}

/** Makes the focused tab's text differ from its file, unsaved: a change on disk is then a conflict. */
async function editUnsaved(client: Client, content: string): Promise<void> {
  const read = await call(client, 'document', { action: 'read' });
  const kept = await call(client, 'document', {
    action: 'write',
    content,
    expected_revision: read.data.revision,
    save: false,
  });
  expect(kept.data).toMatchObject({ saved: false });
}

describe('vmark mcp on stdio', () => {
  let home: string;
  let dir: string;
  beforeAll(async () => {
    [home, dir] = [await homeWithPlugins(), await vault()];
  });

  it('tells a client that sets a level what failed at start-up, then what is at or above it, not below', async () => {
    const { client, transport } = await connectStdio(['--workspace', dir], home);
    const stderr = stderrOf(transport);
    try {
      const log = listenToLog(client);
      expect(await client.setLoggingLevel('warning')).toEqual({});
      // Said while the host started, before the client could listen: told on the answer to setLevel.
      expect(log.messages).toEqual([{ level: 'error', logger: 'plugins', data: BROKEN }]);
      expect((await call(client, 'speaker', { action: 'say', message: 'hello' })).data).toEqual({ said: 8 });
      await log.told(saying('hello at emergency'));
      expect(log.messages.slice(1)).toEqual(
        LOG_LEVELS.slice(LOG_LEVELS.indexOf('warning')).map((level) => ({
          level,
          logger: 'speaker',
          data: `hello at ${level}`,
        })),
      );
      // The person's terminal: the same texts, everything but debug.
      await eventually(() => stderr.text.includes('vmark: speaker: hello at emergency'));
      expect(stderr.text).toContain(`vmark: ${BROKEN}\n`);
      expect(stderr.text).toContain('vmark: speaker: hello at info\n');
      expect(stderr.text).not.toContain('hello at debug');
    } finally {
      await client.close();
    }
  });

  it('tells a client that set no level what is at info and above, and nothing of the start-up', async () => {
    const { client } = await connectStdio(['--workspace', dir], home);
    try {
      const log = listenToLog(client);
      await call(client, 'speaker', { action: 'say', message: 'plain' });
      await log.told(saying('plain at emergency'));
      expect(log.messages.map((m) => m.level)).toEqual(LOG_LEVELS.slice(LOG_LEVELS.indexOf('info')));
    } finally {
      await client.close();
    }
  });

  it('refuses a level MCP does not name (-32602), and lists logging among its capabilities', async () => {
    const { client } = await connectStdio(['--workspace', dir], home);
    try {
      expect(client.getServerCapabilities()?.logging).toEqual({});
      await expect(
        client.request(
          { method: 'logging/setLevel', params: { level: 'loud' as 'info' } },
          EmptyResultSchema,
        ),
      ).rejects.toThrow(/-32602.*level must be one of/);
    } finally {
      await client.close();
    }
  });

  it('reports a 5.1 MiB document.write’s progress to a client that passed a token, and none without', async () => {
    const notes = path.join(dir, 'notes.md');
    const { client } = await connectStdio(['--workspace', dir, '--open', notes], home);
    try {
      const content = big('with a token');
      const reports = await writeLarge(client, content);
      expect(await readFile(notes, 'utf8')).toBe(content);
      expect(reports[0]).toEqual({ progress: 1, total: 3, message: 'staging 5.1 MiB' });
      expect(reports.every((r, i) => i === 0 || r.progress > reports[i - 1]!.progress)).toBe(true);

      // Every notifications/progress lands here from now on, whatever its token.
      const unasked: unknown[] = [];
      client.setNotificationHandler(ProgressNotificationSchema, (n) => void unasked.push(n));
      const read = await call(client, 'document', { action: 'read' });
      const written = await call(client, 'document', {
        action: 'write',
        content: big('without a token'),
        expected_revision: read.data.revision,
      });
      expect(written.data).toMatchObject({ saved: true });
      await client.ping();
      expect(unasked).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('reports the first coherence index of a vault file by file', async () => {
    const large = await realpath(await temp.make('vmark-log-index-'));
    for (let f = 0; f < 300; f++) await writeFile(path.join(large, `note-${f}.md`), `# Note ${f}\n`);
    const { client } = await connectStdio(['--workspace', large], home);
    try {
      const reports: Progress[] = [];
      const status = await client.callTool(
        { name: 'coherence', arguments: { action: 'status', workspace_root: large } },
        undefined,
        { onprogress: (p) => reports.push(p) },
      );
      expect(status.isError).toBeFalsy();
      expect(reports[0]).toEqual({ progress: 1, total: 302, message: 'read 1 of 300 Markdown files' });
      for (const report of reports) expect(report.message).not.toMatch(/note-/);
    } finally {
      await client.close();
    }
  });
});

describe('vmark mcp --http: what each of two connections is told', () => {
  let server: ChildProcessWithoutNullStreams;
  let endpoint: { url: string; token: string };
  let dir: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    const home = await homeWithPlugins();
    dir = await vault();
    server = spawn(
      process.execPath,
      [CLI, 'mcp', '--http', '--workspace', dir, '--open', path.join(dir, 'notes.md')],
      { env: { ...process.env, VMARK_HOME: home } },
    );
    const first = await new Promise<string>((resolve) =>
      createInterface({ input: server.stdout }).once('line', resolve),
    );
    endpoint = JSON.parse(first) as { url: string; token: string };
  });
  afterAll(async () => {
    for (const client of clients.splice(0)) await client.close();
    server.kill();
  });

  const connect = async () => {
    const client = new Client({ name: 'vmark-e2e-log', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint.url), {
        requestInit: { headers: { Authorization: `Bearer ${endpoint.token}` } },
      }),
    );
    clients.push(client);
    return client;
  };

  it('tells every connection of a conflict found on disk, naming the file and never its text', async () => {
    const [a, b] = [await connect(), await connect()];
    const [toA, toB] = [listenToLog(a), listenToLog(b)];
    await a.setLoggingLevel('warning');
    const notes = path.join(dir, 'notes.md');
    await editUnsaved(a, 'MINE unsaved\n');
    await writeFile(notes, 'THEIRS on disk\n');
    const about = (m: LogMessage) =>
      m.logger === 'documents' && String(m.data).includes(JSON.stringify(notes));
    const [seenByA, seenByB] = await Promise.all([toA.told(about), toB.told(about)]);
    expect(seenByA).toEqual(seenByB);
    expect(seenByA).toEqual({
      level: 'warning',
      logger: 'documents',
      data: `${JSON.stringify(notes)} changed on disk while its tab had unsaved changes: the tab keeps its text (a conflict; document.read shows it)`,
    });
  });

  it('tells only the writing connection that its write was saved but not captured', async () => {
    const [writer, other] = [await connect(), await connect()];
    const [toWriter, toOther] = [listenToLog(writer), listenToLog(other)];
    await other.setLoggingLevel('debug');
    const opened = await call(writer, 'workspace', {
      action: 'open',
      filePath: path.join(dir, 'characters/elena.md'),
    });
    await call(writer, 'document', { action: 'read', tabId: opened.data.tabId });
    const chapter = await call(writer, 'workspace', {
      action: 'open',
      filePath: path.join(dir, 'scenes/ch3.md'),
    });
    const read = await call(writer, 'document', { action: 'read', tabId: chapter.data.tabId });
    const content = '---\ntitle: [unclosed\n---\n# Chapter 3\n';
    const written = await call(writer, 'document', {
      action: 'write',
      tabId: chapter.data.tabId,
      content,
      expected_revision: read.data.revision,
    });
    expect(written.data).toMatchObject({ saved: true });
    const skipped = await toWriter.told((m) => m.logger === 'coherence');
    expect(skipped.level).toBe('warning');
    expect(String(skipped.data)).toMatch(
      /^scenes\/ch3\.md was saved as written, without a vmark\.id: .*not valid YAML/,
    );
    expect(String(skipped.data)).not.toContain('unclosed');
    // A host-wide message said after it reaches the other connection on the same stream: had the
    // capture's message been sent there, it would have come first.
    await call(writer, 'speaker', { action: 'say', message: 'later' });
    await toOther.told(saying('later at debug'));
    expect(toOther.messages.filter((m) => m.logger === 'coherence')).toEqual([]);
  });
});

describe('an attached vmark mcp relays a running vmark serve’s messages and progress', () => {
  let served: Served;
  let home: string;
  let dir: string;

  beforeAll(async () => {
    [home, dir] = [await homeWithPlugins(), await vault()];
    served = await startServe(['--workspace', dir, '--open', path.join(dir, 'notes.md')], home);
  });
  afterAll(() => served?.stop());

  it('answers setLevel, and relays the start-up problems, a conflict and a large write’s progress', async () => {
    const { client, transport } = await connectStdio(['--workspace', dir], home);
    const stderr = stderrOf(transport);
    try {
      await eventually(() => stderr.text.includes('attached to the running editor'));
      const log = listenToLog(client);
      expect(await client.setLoggingLevel('error')).toEqual({});
      expect(log.messages).toEqual([{ level: 'error', logger: 'plugins', data: BROKEN }]);

      // Progress rides the call's own response stream, through the relay.
      const content = big('attached');
      const reports = await writeLarge(client, content);
      expect(reports[0]).toEqual({ progress: 1, total: 3, message: 'staging 5.1 MiB' });
      expect(await readFile(path.join(dir, 'notes.md'), 'utf8')).toBe(content);

      // A host-wide message comes on the session's notification stream, through the relay.
      await client.setLoggingLevel('warning');
      await editUnsaved(client, 'unsaved\n');
      await writeFile(path.join(dir, 'notes.md'), 'changed elsewhere\n');
      const conflict = await log.told((m) => m.logger === 'documents');
      expect(conflict).toMatchObject({ level: 'warning', data: expect.stringMatching(/changed on disk/) });
    } finally {
      await client.close();
    }
  });
});
