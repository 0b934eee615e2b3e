import { chmod, mkdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectStdio, eventually, runCli, TempDirs } from './support/cli.js';
import { BUILTIN_TOOLS } from './support/builtin-tools.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('vmark mcp over stdio, with the real MCP SDK client', () => {
  let client: Client;
  let workspace: string;
  let home: string;
  let notes: string;

  beforeAll(async () => {
    workspace = await realpath(await temp.make());
    home = await temp.make('vmark-home-');
    notes = path.join(workspace, 'notes.md');
    await writeFile(notes, '# Notes\n\nfirst\n');
    ({ client } = await connectStdio(['--workspace', workspace, '--open', notes], home));
  });
  afterAll(() => client.close());

  it('offers the session, workspace, document, coherence and workflow tools, with the seed annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(BUILTIN_TOOLS);
    // vmark-notes §1.1: coherence is read-only (auto-approvable); its one mutation is a tool of its own.
    expect(tools.find((t) => t.name === 'coherence')!.annotations).toEqual({
      title: 'VMark Workspace Coherence',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(tools.find((t) => t.name === 'coherence_resolve')!.annotations).toEqual({
      title: 'VMark Coherence Resolve',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
    for (const name of ['coherence', 'coherence_resolve'])
      expect(tools.find((t) => t.name === name)!.inputSchema.required).toEqual(['action', 'workspace_root']);
    const byName = (name: string) => tools.find((t) => t.name === name);
    const [session, document] = [byName('session'), byName('document')];
    // vmark-notes §1.1: browser changes pages, browser_read only reads them (auto-approvable).
    expect(byName('browser')!.annotations).toEqual({
      title: 'VMark Embedded Browser',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(byName('browser_read')!.annotations).toEqual({
      title: 'VMark Embedded Browser (read-only)',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(session!.annotations).toEqual({
      title: 'VMark Session State',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(document!.annotations).toEqual({
      title: 'VMark Document Read/Write',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(document!.title).toBe('VMark Document Read/Write');
    expect(document!.inputSchema.required).toEqual(['action']);
    expect(document!.inputSchema.properties!.action).toMatchObject({ enum: ['read', 'write', 'transform'] });
    expect(document!.inputSchema.properties!.tabId).toMatchObject({ type: 'string', minLength: 1 });
    expect(Object.keys(document!.outputSchema!.properties!)).toEqual(
      expect.arrayContaining([
        'content',
        'revision',
        'saved',
        'save_skipped',
        'save_error',
        'current_revision',
        'truncated',
      ]),
    );
  });

  it('introduces itself with usage instructions', () => {
    expect(client.getServerVersion()?.name).toBe('vmark');
    expect(client.getInstructions()).toMatch(/session\.get_state/);
    expect(client.getInstructions()).toMatch(/expected_revision/);
  });

  it('reports windows and tabs exactly as the seed shows them', async () => {
    const { data } = await call(client, 'session', { action: 'get_state' });
    const windows = data.windows as Record<string, unknown>[];
    expect(windows).toHaveLength(1);
    expect(windows[0]).toMatchObject({
      label: 'main',
      focused: true,
      activeWorkspaceInstanceId: expect.stringMatching(/^wsi-[a-z0-9]{6}$/),
    });
    expect(windows[0]!.tabs).toEqual([
      {
        id: 'tab-1',
        filePath: notes,
        title: 'notes',
        dirty: false,
        revision: expect.stringMatching(/^rev-[A-Za-z0-9]{8}$/),
        kind: 'markdown',
        active: true,
        visible: true,
      },
    ]);
    expect(data.capabilities).toMatchObject({
      supportedKinds: ['browser-workflow', 'markdown', 'text', 'yaml-workflow'],
      mcpProtocol: '0.3.0',
    });
  });

  it('reads, writes to disk, and refuses a stale revision with STALE and the current revision', async () => {
    const read = await call(client, 'document', { action: 'read' });
    expect(read.data).toMatchObject({
      content: '# Notes\n\nfirst\n',
      filePath: notes,
      kind: 'markdown',
      dirty: false,
    });
    const first = read.data.revision as string;

    const write = await call(client, 'document', {
      action: 'write',
      content: '# Notes\n\nsecond\n',
      expected_revision: first,
    });
    expect(write.isError).toBe(false);
    expect(write.data).toEqual({ revision: expect.stringMatching(/^rev-/), saved: true });
    expect(write.data.revision).not.toBe(first);
    expect(await readFile(notes, 'utf8')).toBe('# Notes\n\nsecond\n');

    const stale = await call(client, 'document', {
      action: 'write',
      content: 'lost?',
      expected_revision: first,
    });
    expect(stale.isError).toBe(true);
    expect(stale.data).toEqual({
      error: 'STALE',
      message: 'Document has changed since the last read',
      current_revision: write.data.revision,
    });
    expect(stale.text).toMatch(/^STALE: the document changed since your last read \(current_revision: rev-/);
    expect(await readFile(notes, 'utf8')).toBe('# Notes\n\nsecond\n');
  });

  it('keeps the text in the buffer when asked not to save', async () => {
    const before = await call(client, 'document', { action: 'read', tabId: 'tab-1' });
    const write = await call(client, 'document', { action: 'write', content: 'draft\n', save: false });
    expect(write.data).toMatchObject({ saved: false, save_skipped: 'opt_out' });
    expect(await readFile(notes, 'utf8')).toBe(before.data.content);
    expect((await call(client, 'document', { action: 'read' })).data).toMatchObject({
      content: 'draft\n',
      dirty: true,
    });
    await call(client, 'document', { action: 'write', content: before.data.content });
  });

  it.each([
    [{ action: 'write' }, 'content (string) is required'],
    [{ action: 'write', content: 42 }, 'content (string) is required'],
    [{ action: 'read', tabId: '   ' }, 'tabId must be a non-empty string when provided'],
    [{ action: 'read', content: 'x' }, 'content is not an argument of document.read'],
    [{ action: 'read', tabid: 'tab-1' }, 'tabid'],
    [{ action: 'remove' }, 'Invalid action: remove. Expected: read, write'],
    [{}, 'action (string) is required'],
    [
      { action: 'write', content: 'x', expected_revision: 'latest' },
      'expected_revision must be a revision token',
    ],
    [{ action: 'write', content: 'x', save: 'yes' }, 'save must be a boolean'],
  ])('answers bad arguments %j with a plain string naming the field', async (args, message) => {
    const before = await readFile(notes, 'utf8');
    const result = await call(client, 'document', args);
    expect(result.isError).toBe(true);
    expect(result.text).toContain(message);
    expect(() => JSON.parse(result.text) as unknown).toThrow();
    expect(await readFile(notes, 'utf8')).toBe(before);
  });

  it('refuses an unknown tab with the INVALID_TAB envelope', async () => {
    const result = await call(client, 'document', { action: 'read', tabId: 'tab-99' });
    expect(result.isError).toBe(true);
    expect(result.data).toEqual({ error: 'INVALID_TAB', message: 'Unknown tabId: tab-99' });
  });
});

describe('a write that cannot be saved leaves the file as it was and says why', () => {
  it('a read-only file', async () => {
    const workspace = await realpath(await temp.make());
    const file = path.join(workspace, 'locked.md');
    await writeFile(file, 'original\n');
    await chmod(file, 0o444);
    const { client } = await connectStdio(['--workspace', workspace, '--open', file], await temp.make());
    try {
      const result = await call(client, 'document', { action: 'write', content: 'changed\n' });
      expect(result.isError).toBe(false);
      expect(result.data).toMatchObject({
        saved: false,
        save_error: expect.stringMatching(/read-only|write permission/i),
      });
      expect(await readFile(file, 'utf8')).toBe('original\n');
      expect((await call(client, 'document', { action: 'read' })).data).toMatchObject({
        content: 'changed\n',
        dirty: true,
      });
    } finally {
      await client.close();
    }
  });

  it('a folder that was deleted since the file was opened', async () => {
    const workspace = await realpath(await temp.make());
    await mkdir(path.join(workspace, 'gone'));
    const file = path.join(workspace, 'gone', 'a.md');
    await writeFile(file, 'a\n');
    const { client } = await connectStdio(['--workspace', workspace, '--open', file], await temp.make());
    try {
      await rm(path.join(workspace, 'gone'), { recursive: true });
      const result = await call(client, 'document', { action: 'write', content: 'b\n' });
      expect(result.data).toMatchObject({
        saved: false,
        save_error: expect.stringMatching(/does not exist/),
      });
    } finally {
      await client.close();
    }
  });

  it('a file another program changed on disk since vmark read it: nothing written, the tab takes the disk', async () => {
    const workspace = await realpath(await temp.make());
    const file = path.join(workspace, 'shared.md');
    await writeFile(file, 'v1\n');
    const { client } = await connectStdio(['--workspace', workspace, '--open', file], await temp.make());
    try {
      const before = await call(client, 'document', { action: 'read' });
      await writeFile(file, 'edited elsewhere\n');
      const result = await call(client, 'document', {
        action: 'write',
        content: 'from the AI\n',
        expected_revision: (before.data as { revision: string }).revision,
      });
      // STALE either way: found by the save (conflict: changed-on-disk), or by the revision when the
      // tab had already reloaded the file.
      expect(result.isError).toBe(true);
      expect(result.data).toMatchObject({ error: 'STALE' });
      expect(await readFile(file, 'utf8')).toBe('edited elsewhere\n');
      const after = await call(client, 'document', { action: 'read' });
      expect(after.data).toMatchObject({
        content: 'edited elsewhere\n',
        dirty: false,
        revision: (result.data as { current_revision: string }).current_revision,
      });
    } finally {
      await client.close();
    }
  });
});

describe('the command line', () => {
  it('refuses an --open path outside the workspace with a clear error', async () => {
    const workspace = await temp.make();
    const outside = path.join(await temp.make(), 'secret.md');
    await writeFile(outside, 'secret');
    const result = await runCli(['mcp', '--workspace', workspace, '--open', outside], {
      VMARK_HOME: await temp.make(),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('INVALID_PATH');
    expect(result.stderr).toContain(outside);
    expect(result.stderr).toMatch(/outside the open workspace/);
  });

  it('refuses --open through a symlink that points outside the workspace', async () => {
    const workspace = await temp.make();
    const outside = path.join(await temp.make(), 'secret.md');
    await writeFile(outside, 'secret');
    await symlink(outside, path.join(workspace, 'innocent.md'));
    const result = await runCli(
      ['mcp', '--workspace', workspace, '--open', path.join(workspace, 'innocent.md')],
      {
        VMARK_HOME: await temp.make(),
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('INVALID_PATH');
  });

  it('prints its version and a health check line', async () => {
    const home = await temp.make();
    const version = await runCli(['--version'], { VMARK_HOME: home });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const health = await runCli(['--health-check'], { VMARK_HOME: home });
    expect(health.code).toBe(0);
    const lines = health.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      status: 'ok',
      version: version.stdout.trim(),
      toolCount: BUILTIN_TOOLS.length,
      tools: BUILTIN_TOOLS.map((name): unknown => expect.objectContaining({ name })),
    });
  });

  it('lists an incompatible plugin with a diagnostic and does not load it', async () => {
    const home = await temp.make();
    const dir = path.join(home, 'plugins', 'from-the-future');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'main.js'), `throw new Error('must never be loaded');\n`);
    await writeFile(
      path.join(dir, 'manifest.json'),
      JSON.stringify({
        id: 'from-the-future',
        name: 'Future',
        version: '1.0.0',
        engines: { host: '^9.0.0' },
        main: 'main.js',
      }),
    );
    const result = await runCli(['plugins', 'list', '--json'], { VMARK_HOME: home });
    expect(result.code).toBe(0);
    const future = (
      JSON.parse(result.stdout) as {
        id: string;
        active: boolean;
        source: string;
        diagnostics: { message: string }[];
      }[]
    ).find((p) => p.id === 'from-the-future');
    expect(future).toMatchObject({ active: false, source: 'user' });
    expect(future!.diagnostics.map((d) => d.message).join()).toMatch(
      /not compatible with the vmark host API \d+\.\d+\.\d+.*\^9\.0\.0/,
    );
    const health = JSON.parse((await runCli(['--health-check'], { VMARK_HOME: home })).stdout) as {
      toolCount: number;
    };
    expect(health.toolCount).toBe(BUILTIN_TOOLS.length);
  });

  it('plugins disable takes the tools out of a running session, with tools/list_changed; enable brings them back', async () => {
    const home = await temp.make();
    const workspace = await temp.make();
    const { client } = await connectStdio(['--workspace', workspace], home);
    try {
      let changes = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changes++;
      });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(BUILTIN_TOOLS);

      const disabled = await runCli(['plugins', 'disable', 'document'], { VMARK_HOME: home });
      expect(disabled).toMatchObject({ code: 0, stdout: 'document: disabled\n' });
      await eventually(() => changes >= 2);
      // Coherence depends on the document plugin and goes with it; the browser's and workflow's tools stay.
      await eventually(async () => (await client.listTools()).tools.length === 3);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
        'browser',
        'browser_read',
        'workflow',
      ]);
      const listed = JSON.parse(
        (await runCli(['plugins', 'list', '--json'], { VMARK_HOME: home })).stdout,
      ) as { id: string; enabled: boolean }[];
      expect(listed.find((p) => p.id === 'document')).toMatchObject({ enabled: false });

      await runCli(['plugins', 'enable', 'document'], { VMARK_HOME: home });
      await eventually(async () => (await client.listTools()).tools.length === BUILTIN_TOOLS.length);
      expect((await call(client, 'session', { action: 'get_state' })).isError).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('refuses to enable a plugin that does not exist', async () => {
    const result = await runCli(['plugins', 'enable', 'nope'], { VMARK_HOME: await temp.make() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no plugin with id "nope"');
  });
});
