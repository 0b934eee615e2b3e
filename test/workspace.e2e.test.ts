import { createHash } from 'node:crypto';
import { mkdir, readFile, realpath, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, connectStdio, type ElicitationPolicy, eventually, runCli, TempDirs } from './support/cli.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

let workspace: string;
let home: string;
let client: Client;

async function start(args: string[] = [], elicitation?: ElicitationPolicy, onElicit?: (m: string) => void) {
  ({ client } = await connectStdio(['--workspace', workspace, ...args], home, { elicitation, onElicit }));
}

beforeEach(async () => {
  workspace = await realpath(await temp.make());
  home = await temp.make('vmark-home-');
  await writeFile(path.join(workspace, 'a.md'), '# A\n');
  await mkdir(path.join(workspace, 'notes'));
  await writeFile(path.join(workspace, 'notes', 'b.md'), '# B\n');
});
afterEach(() => client?.close());

const ws = (args: Record<string, unknown>) => call(client, 'workspace', args);
const approvals = async () =>
  JSON.parse((await runCli(['approvals', 'list', '--json'], { VMARK_HOME: home })).stdout) as {
    id: string;
    subject: string;
    status: string;
  }[];

describe('workspace.new and workspace.open', () => {
  beforeEach(() => start());

  it('lists the workspace tool with the seed annotations and its eight actions', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'workspace')!;
    expect(tool.annotations).toEqual({
      title: 'VMark Workspace and Files',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(tool.inputSchema.properties!.action).toMatchObject({
      enum: ['new', 'open', 'open_workspace', 'save', 'save_as', 'close', 'switch_tab', 'focus_window'],
    });
  });

  it('creates untitled tabs of either kind', async () => {
    const md = await ws({ action: 'new' });
    const yaml = await ws({ action: 'new', kind: 'yaml-workflow' });
    expect(md.data).toEqual({ tabId: expect.stringMatching(/^tab-\d+$/) });
    const state = (await call(client, 'session', { action: 'get_state' })).data as {
      windows: { tabs: { id: string; kind: string; filePath: unknown }[] }[];
    };
    const tabs = state.windows[0]!.tabs;
    expect(tabs.find((t) => t.id === md.data.tabId)).toMatchObject({ kind: 'markdown', filePath: null });
    expect(tabs.find((t) => t.id === yaml.data.tabId)).toMatchObject({
      kind: 'yaml-workflow',
      filePath: null,
    });
    expect((await ws({ action: 'new', kind: 'html' })).text).toContain(
      'kind must be one of: markdown, yaml-workflow',
    );
  });

  it('opens files as background tabs: the visible tab does not change', async () => {
    const first = await ws({ action: 'open', filePath: path.join(workspace, 'a.md') });
    expect(first.data).toEqual({
      tabId: 'tab-1',
      workspaceInstanceId: expect.stringMatching(/^wsi-/),
      activationChanged: true,
      workspaceSwitched: false,
    });
    const second = await ws({ action: 'open', filePath: path.join(workspace, 'notes', 'b.md') });
    expect(second.data).toMatchObject({ tabId: 'tab-2', activationChanged: false, workspaceSwitched: false });
    expect((await call(client, 'document', { action: 'read' })).data).toMatchObject({ content: '# A\n' });
    const again = await ws({ action: 'open', filePath: path.join(workspace, 'notes', 'b.md') });
    expect(again.data).toMatchObject({ tabId: 'tab-2' });
  });

  it('resolves a relative path against the workspace and keeps trailing spaces', async () => {
    await writeFile(path.join(workspace, 'a.md '), 'with a space\n');
    const spaced = await ws({ action: 'open', filePath: 'a.md ' });
    expect((await call(client, 'document', { action: 'read', tabId: spaced.data.tabId })).data).toMatchObject(
      {
        content: 'with a space\n',
        filePath: path.join(workspace, 'a.md '),
      },
    );
  });

  it.each([
    ['a file outside the workspace', () => path.join(path.dirname(workspace), 'elsewhere.md')],
    ['a ../ traversal', () => path.join(workspace, '..', path.basename(workspace) + '-evil', 'x.md')],
    ['a NUL byte', () => path.join(workspace, 'a.md\0.txt')],
    ['a file that does not exist', () => path.join(workspace, 'missing.md')],
  ])('refuses %s with INVALID_PATH', async (_name, target) => {
    const result = await ws({ action: 'open', filePath: target() });
    expect(result.isError).toBe(true);
    expect(result.data).toMatchObject({ error: 'INVALID_PATH' });
  });

  it('refuses a symlink that points outside the workspace', async () => {
    const outside = path.join(await temp.make(), 'secret.md');
    await writeFile(outside, 'secret');
    await symlink(outside, path.join(workspace, 'link.md'));
    expect((await ws({ action: 'open', filePath: path.join(workspace, 'link.md') })).data).toMatchObject({
      error: 'INVALID_PATH',
    });
  });

  it('focuses a window by label, and refuses an unknown one', async () => {
    expect((await ws({ action: 'focus_window', windowLabel: 'main' })).data).toEqual({
      windowLabel: 'main',
      focused: true,
    });
    const unknown = await ws({ action: 'focus_window', windowLabel: 'doc-9' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('does not name an open window');
  });
});

describe("the path guard, through MCP (the filesystem reference server's cases)", () => {
  it('opens names with unicode, spaces and percent signs', async () => {
    await start();
    for (const name of ['中文筆記.md', 'Reading list.md', '100% done.md', 'café.md']) {
      await writeFile(path.join(workspace, name), name);
      const opened = await ws({ action: 'open', filePath: path.join(workspace, name) });
      expect(
        (await call(client, 'document', { action: 'read', tabId: opened.data.tabId })).data,
      ).toMatchObject({ content: name });
    }
  });

  it('works in a workspace whose root is itself a symlink', async () => {
    const link = path.join(await temp.make(), 'ws-link');
    await symlink(workspace, link);
    ({ client } = await connectStdio(['--workspace', link], home));
    expect((await ws({ action: 'open', filePath: path.join(link, 'a.md') })).isError).toBe(false);
    expect((await ws({ action: 'open', filePath: path.join(workspace, 'notes', 'b.md') })).isError).toBe(
      false,
    );
  });

  it('refuses a chain of symlinks that ends outside', async () => {
    const outside = path.join(await temp.make(), 'secret.md');
    await writeFile(outside, 'secret');
    await symlink(outside, path.join(workspace, 'hop2.md'));
    await symlink(path.join(workspace, 'hop2.md'), path.join(workspace, 'hop1.md'));
    await start();
    expect((await ws({ action: 'open', filePath: path.join(workspace, 'hop1.md') })).data).toMatchObject({
      error: 'INVALID_PATH',
    });
  });

  it('refuses save_as into a symlinked folder that points outside, and writes nothing there', async () => {
    const outsideDir = await temp.make();
    await symlink(outsideDir, path.join(workspace, 'escape'));
    await writeFile(
      path.join(home, 'settings.json'),
      JSON.stringify({ integrations: { autoApproveEdits: true } }),
    );
    await start(['--open', path.join(workspace, 'a.md')]);
    const result = await ws({ action: 'save_as', filePath: path.join(workspace, 'escape', 'stolen.md') });
    expect(result.data).toMatchObject({ error: 'INVALID_PATH' });
    await expect(stat(path.join(outsideDir, 'stolen.md'))).rejects.toThrow();
  });

  it('treats a trailing separator and a prefix-sharing sibling folder correctly', async () => {
    const sibling = workspace + '-evil';
    await mkdir(sibling);
    await writeFile(path.join(sibling, 'x.md'), 'x');
    await start();
    expect((await ws({ action: 'open', filePath: path.join(sibling, 'x.md') })).data).toMatchObject({
      error: 'INVALID_PATH',
    });
    expect(
      (await ws({ action: 'open', filePath: path.join(workspace, 'notes') + path.sep })).data,
    ).toMatchObject({
      error: 'INVALID_PATH',
    });
    await rm(sibling, { recursive: true });
  });
});

describe('with nothing open', () => {
  it('refuses every file operation', async () => {
    ({ client } = await connectStdio([], home));
    const result = await ws({ action: 'open', filePath: path.join(workspace, 'a.md') });
    expect(result.data).toMatchObject({
      error: 'INVALID_PATH',
      message: expect.stringMatching(/no workspace or document is open/),
    });
  });
});

describe('workspace.open_workspace asks a person first', () => {
  it('without elicitation: needsApproval, then `vmark approvals allow` lets the same call through once', async () => {
    await start();
    const other = await realpath(await temp.make());
    const first = await ws({ action: 'open_workspace', folderPath: other });
    expect(first.isError).toBe(true);
    expect(first.data).toEqual({
      needsApproval: true,
      folderPath: other,
      requestId: expect.stringMatching(/^apr-/),
    });
    expect(first.text).toMatch(/^approval required to open workspace '/);
    expect((await ws({ action: 'open_workspace', folderPath: other })).data).toMatchObject({
      requestId: first.data.requestId,
    });
    expect(await approvals()).toEqual([
      expect.objectContaining({ id: first.data.requestId, subject: other, status: 'waiting' }),
    ]);

    expect(
      (await runCli(['approvals', 'allow', first.data.requestId as string], { VMARK_HOME: home })).code,
    ).toBe(0);
    const opened = await ws({ action: 'open_workspace', folderPath: other });
    expect(opened.data).toEqual({ folderPath: other, workspaceInstanceId: expect.stringMatching(/^wsi-/) });
    // Every open is approved on its own: the approval was used up.
    expect((await ws({ action: 'open_workspace', folderPath: other })).data).toMatchObject({
      needsApproval: true,
    });
  });

  it('a denied request keeps failing until someone approves it', async () => {
    await start();
    const other = await realpath(await temp.make());
    const { requestId } = (await ws({ action: 'open_workspace', folderPath: other })).data as {
      requestId: string;
    };
    await runCli(['approvals', 'deny', requestId], { VMARK_HOME: home });
    for (let i = 0; i < 2; i++) {
      const denied = await ws({ action: 'open_workspace', folderPath: other });
      expect(denied.data).toMatchObject({ needsApproval: true, denied: true, folderPath: other });
    }
    await runCli(['approvals', 'allow', requestId], { VMARK_HOME: home });
    expect((await ws({ action: 'open_workspace', folderPath: other })).data).toMatchObject({
      folderPath: other,
    });
  });

  it('names the canonical, symlink-resolved folder', async () => {
    const real = await realpath(await temp.make());
    const link = path.join(await temp.make(), 'shortcut');
    await symlink(real, link);
    const messages: string[] = [];
    await start([], 'accept', (m) => messages.push(m));
    const opened = await ws({ action: 'open_workspace', folderPath: link });
    expect(opened.data).toMatchObject({ folderPath: real });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toBe(
      `VMark: allow open_workspace on ${JSON.stringify(real)} (asked as ${JSON.stringify(link)})? ` +
        'Asked by "vmark-e2e" (connection conn-1, not an installed client).',
    );
  });

  it('with an elicitation handler that accepts, opens in the same call', async () => {
    await start([], 'accept');
    const other = await realpath(await temp.make());
    await writeFile(path.join(other, 'c.md'), '# C\n');
    expect((await ws({ action: 'open_workspace', folderPath: other })).data).toMatchObject({
      folderPath: other,
    });
    expect((await ws({ action: 'open', filePath: path.join(other, 'c.md') })).isError).toBe(false);
  });

  it.each(['decline', 'cancel'] as const)(
    'with an elicitation handler that answers %s, refuses',
    async (answer) => {
      await start([], answer);
      const other = await realpath(await temp.make());
      const refused = await ws({ action: 'open_workspace', folderPath: other });
      expect(refused.isError).toBe(true);
      expect(refused.data).toMatchObject({ needsApproval: true, denied: true, folderPath: other });
      expect((await ws({ action: 'open', filePath: path.join(other, 'x.md') })).data).toMatchObject({
        error: 'INVALID_PATH',
      });
    },
  );

  it('asks about a folder that does not exist like any other, saying so, and refuses it once allowed', async () => {
    const messages: string[] = [];
    await start([], 'accept', (m) => messages.push(m));
    const missing = path.join(workspace, 'nope');
    const result = await ws({ action: 'open_workspace', folderPath: missing });
    expect(result.data).toEqual({
      error: 'INVALID_PATH',
      message: `Path ${JSON.stringify(missing)} does not exist: it cannot be opened as a workspace`,
    });
    expect(messages).toEqual([
      `VMark: allow open_workspace on ${JSON.stringify(missing)}? Note: nothing exists at this path, so it ` +
        'cannot be opened, even if allowed. Asked by "vmark-e2e" (connection conn-1, not an installed client).',
    ]);
  });

  it("bounds the requests that wait for a person: RESOURCE_EXHAUSTED past the connection's share", async () => {
    await start();
    const outcomes = [];
    for (let i = 0; i < 9; i++)
      outcomes.push(await ws({ action: 'open_workspace', folderPath: await realpath(await temp.make()) }));
    expect(outcomes.slice(0, 8).every((o) => o.data.needsApproval === true)).toBe(true);
    expect(outcomes[8]!.data).toMatchObject({ error: 'RESOURCE_EXHAUSTED' });
  });
});

describe('workspace.save, save_as, close and switch_tab', () => {
  beforeEach(() => start(['--open', path.join(workspace, 'a.md')]));

  it("saves to the tab's own file", async () => {
    await call(client, 'document', { action: 'write', content: '# A2\n', save: false });
    const saved = await ws({ action: 'save' });
    expect(saved.data).toEqual({
      filePath: path.join(workspace, 'a.md'),
      revision: expect.stringMatching(/^rev-/),
    });
    expect(await readFile(path.join(workspace, 'a.md'), 'utf8')).toBe('# A2\n');
  });

  it('refuses to save an untitled tab', async () => {
    const { tabId } = (await ws({ action: 'new' })).data as { tabId: string };
    expect((await ws({ action: 'save', tabId })).data).toMatchObject({
      error: 'INVALID_PATH',
      message: expect.stringMatching(/untitled/),
    });
  });

  it('save_as to a new location needs "Auto-approve edits"; onto its own path it is always allowed', async () => {
    const target = path.join(workspace, 'copy.md');
    const refused = await ws({ action: 'save_as', filePath: target });
    expect(refused.data).toMatchObject({ error: 'APPROVAL_REQUIRED' });
    await expect(stat(target)).rejects.toThrow();
    expect((await ws({ action: 'save_as', filePath: path.join(workspace, 'a.md') })).data).toEqual({
      revision: expect.stringMatching(/^rev-/),
    });

    await writeFile(
      path.join(home, 'settings.json'),
      JSON.stringify({ integrations: { autoApproveEdits: true } }),
    );
    expect((await ws({ action: 'save_as', filePath: target })).isError).toBe(false);
    expect(await readFile(target, 'utf8')).toBe('# A\n');
    expect((await call(client, 'document', { action: 'read' })).data).toMatchObject({ filePath: target });
    // Replacing a file that is there is never covered by the setting: a person is asked each time.
    expect(
      (await ws({ action: 'save_as', filePath: path.join(workspace, 'notes', 'b.md') })).data,
    ).toMatchObject({ error: 'APPROVAL_REQUIRED', replaces: true });
    expect(await readFile(path.join(workspace, 'notes', 'b.md'), 'utf8')).toBe('# B\n');
    expect(
      (await ws({ action: 'save_as', filePath: path.join(await temp.make(), 'out.md') })).data,
    ).toMatchObject({
      error: 'INVALID_PATH',
    });
  });

  it('close refuses a dirty tab unless forced', async () => {
    await call(client, 'document', { action: 'write', content: 'unsaved\n', save: false });
    expect((await ws({ action: 'close', tabId: 'tab-1' })).data).toEqual({ closed: false, reason: 'DIRTY' });
    expect((await ws({ action: 'close', tabId: 'tab-1', force: true })).data).toEqual({ closed: true });
    expect((await call(client, 'document', { action: 'read', tabId: 'tab-1' })).data).toMatchObject({
      error: 'INVALID_TAB',
    });
    expect((await ws({ action: 'close', tabId: 'tab-1' })).data).toMatchObject({ error: 'INVALID_TAB' });
    expect((await ws({ action: 'close' })).text).toBe('tabId must be a non-empty string');
  });

  it('switch_tab activates a tab and reads the result back; across workspaces it says so', async () => {
    await ws({ action: 'open', filePath: path.join(workspace, 'notes', 'b.md') });
    const switched = await ws({ action: 'switch_tab', tabId: 'tab-2' });
    expect(switched.data).toEqual({
      activated: true,
      workspaceSwitched: false,
      workspaceInstanceId: expect.stringMatching(/^wsi-/),
      activeTabId: 'tab-2',
    });
    expect((await ws({ action: 'switch_tab', tabId: 'tab-9' })).data).toMatchObject({ error: 'INVALID_TAB' });
  });
});

describe('workspace.save_as onto a file that is there', () => {
  const b = () => path.join(workspace, 'notes', 'b.md');
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const checkpoints = async () =>
    JSON.parse((await runCli(['checkpoints', 'list', '--json'], { VMARK_HOME: home })).stdout) as {
      id: string;
      filePath: string;
      tool: string;
      description: string;
    }[];

  it('without a person: APPROVAL_REQUIRED naming the file, which stays as it was', async () => {
    await start(['--open', path.join(workspace, 'a.md')]);
    const refused = await ws({ action: 'save_as', filePath: b() });
    expect(refused.isError).toBe(true);
    expect(refused.data).toEqual({
      error: 'APPROVAL_REQUIRED',
      message: expect.stringMatching(/exists: saving over it replaces it, which needs the user's approval/),
      filePath: b(),
      replaces: true,
      requestId: expect.stringMatching(/^apr-/),
    });
    expect(await readFile(b(), 'utf8')).toBe('# B\n');
    // The person at a terminal sees which file, how large, and its hash: what they allow replacing.
    expect(await approvals()).toEqual([
      expect.objectContaining({
        id: refused.data.requestId,
        operation: 'save_as',
        subject: b(),
        status: 'waiting',
        detail: expect.stringContaining(
          `It replaces the file there now (4 bytes, SHA-256 ${sha256('# B\n')})`,
        ),
      }),
    ]);
    const listed = await runCli(['approvals', 'list'], { VMARK_HOME: home });
    expect(listed.stdout).toContain(`detail:   It replaces the file there now (4 bytes`);
    // Neither the setting for new locations nor a retry gets it through.
    await writeFile(
      path.join(home, 'settings.json'),
      JSON.stringify({ integrations: { autoApproveEdits: true } }),
    );
    expect((await ws({ action: 'save_as', filePath: b() })).data).toMatchObject({
      error: 'APPROVAL_REQUIRED',
      requestId: refused.data.requestId,
    });
    expect(await readFile(b(), 'utf8')).toBe('# B\n');
  });

  it('once a person allows it, replaces the file, and the replaced text can be restored', async () => {
    await start(['--open', path.join(workspace, 'a.md')]);
    const { requestId } = (await ws({ action: 'save_as', filePath: b() })).data as { requestId: string };
    expect((await runCli(['approvals', 'allow', requestId], { VMARK_HOME: home })).code).toBe(0);
    const saved = await ws({ action: 'save_as', filePath: b() });
    expect(saved).toMatchObject({ isError: false, data: { revision: expect.stringMatching(/^rev-/) } });
    expect(await readFile(b(), 'utf8')).toBe('# A\n');
    expect((await call(client, 'document', { action: 'read' })).data).toMatchObject({
      filePath: b(),
      dirty: false,
    });

    let entry: Awaited<ReturnType<typeof checkpoints>>[number] | undefined;
    await eventually(
      async () => (entry = (await checkpoints()).find((e) => e.filePath === b())) !== undefined,
    );
    expect(entry).toMatchObject({
      tool: 'workspace.save_as',
      description: expect.stringMatching(/^Replaced b\.md/),
    });
    const restored = await runCli(['checkpoints', 'restore', entry!.id], { VMARK_HOME: home });
    expect(restored.code).toBe(0);
    expect(await readFile(b(), 'utf8')).toBe('# B\n');
    // The tab, clean, follows its file back.
    await eventually(
      async () => (await call(client, 'document', { action: 'read' })).data.content === '# B\n',
    );
    // Every replacement is asked about on its own: back over a.md, the tab's old file, asks again.
    expect((await ws({ action: 'save_as', filePath: path.join(workspace, 'a.md') })).data).toMatchObject({
      error: 'APPROVAL_REQUIRED',
      replaces: true,
    });
  });

  it('an approval is for the bytes the person was shown: a file changed since is asked about anew', async () => {
    await start(['--open', path.join(workspace, 'a.md')]);
    const first = (await ws({ action: 'save_as', filePath: b() })).data as { requestId: string };
    await runCli(['approvals', 'allow', first.requestId], { VMARK_HOME: home });
    await writeFile(b(), '# B, edited since\n');
    const again = await ws({ action: 'save_as', filePath: b() });
    expect(again.data).toMatchObject({ error: 'APPROVAL_REQUIRED', replaces: true });
    expect(again.data.requestId).not.toBe(first.requestId);
    expect(await readFile(b(), 'utf8')).toBe('# B, edited since\n');
  });

  it('asks through elicitation, naming the file it replaces; a decline keeps it', async () => {
    const messages: string[] = [];
    await start(['--open', path.join(workspace, 'a.md')], 'decline', (m) => messages.push(m));
    const declined = await ws({ action: 'save_as', filePath: b() });
    expect(declined.data).toMatchObject({ error: 'APPROVAL_REQUIRED', denied: true, filePath: b() });
    expect(await readFile(b(), 'utf8')).toBe('# B\n');
    expect(messages).toEqual([
      `VMark: allow save_as on ${JSON.stringify(b())}? It replaces the file there now (4 bytes, SHA-256 ` +
        `${sha256('# B\n')}); VMark keeps its text in the AI edit history, from which \`vmark checkpoints ` +
        'restore` puts it back. Asked by "vmark-e2e" (connection conn-1, not an installed client).',
    ]);
  });

  it('with an elicitation that accepts, replaces in the same call', async () => {
    await start(['--open', path.join(workspace, 'a.md')], 'accept');
    expect((await ws({ action: 'save_as', filePath: b() })).isError).toBe(false);
    expect(await readFile(b(), 'utf8')).toBe('# A\n');
  });

  it('refuses, without asking, a file open in another tab or one that is not text', async () => {
    const messages: string[] = [];
    await start(['--open', path.join(workspace, 'a.md'), '--open', b()], 'accept', (m) => messages.push(m));
    expect((await ws({ action: 'save_as', tabId: 'tab-1', filePath: b() })).data).toMatchObject({
      error: 'INVALID_PATH',
      message: expect.stringMatching(/is open in another tab/),
    });
    const picture = path.join(workspace, 'pic.png');
    await writeFile(picture, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff]));
    expect((await ws({ action: 'save_as', tabId: 'tab-1', filePath: picture })).data).toMatchObject({
      error: 'INVALID_PATH',
      message: expect.stringMatching(/not UTF-8 text; save_as replaces only a text file/),
    });
    expect(messages).toEqual([]);
    expect(await readFile(b(), 'utf8')).toBe('# B\n');
  });
});

describe('identifiers: one schema property per name, one message per action', () => {
  beforeEach(() => start(['--open', path.join(workspace, 'a.md')]));

  it.each([
    [{ action: 'close', tabId: ' ' }, 'tabId must be a non-empty string'],
    [{ action: 'close', tabId: '' }, 'tabId must be a non-empty string'],
    [{ action: 'switch_tab', tabId: '\t' }, 'tabId must be a non-empty string'],
    [{ action: 'switch_tab', tabId: 3 }, 'tabId must be a non-empty string'],
    [{ action: 'focus_window', windowLabel: ' ' }, 'windowLabel must be a non-empty string'],
    [
      { action: 'save', tabId: ' ' },
      'tabId must be a non-empty string when provided — omit it to target the focused tab',
    ],
    [
      { action: 'new', windowLabel: ' ' },
      'windowLabel must be a non-empty string when provided — omit it to target the focused window',
    ],
  ])('%j is refused with the message of that action: %s', async (args, message) => {
    const result = await ws(args);
    expect(result).toEqual({ isError: true, text: message, data: {} });
    // Nothing happened: the one tab is still open, in place.
    expect((await call(client, 'document', { action: 'read', tabId: 'tab-1' })).data).toMatchObject({
      content: '# A\n',
    });
  });

  it('lists every tabId and windowLabel of every tool as a non-empty string (vmark-notes §1.1)', async () => {
    const { tools } = await client.listTools();
    const ids = tools.flatMap((tool) =>
      ['tabId', 'windowLabel']
        .filter((name) => tool.inputSchema.properties?.[name] !== undefined)
        .map((name) => [tool.name, name, tool.inputSchema.properties![name]] as const),
    );
    expect(ids.map(([tool, name]) => `${tool}.${name}`)).toEqual(
      expect.arrayContaining([
        'workspace.tabId',
        'workspace.windowLabel',
        'document.tabId',
        'workflow.tabId',
      ]),
    );
    for (const [, , schema] of ids) expect(schema).toEqual({ type: 'string', minLength: 1 });
  });

  it('lists tabId and windowLabel once each, non-empty, and only action as required', async () => {
    const schema = (await client.listTools()).tools.find((t) => t.name === 'workspace')!.inputSchema;
    expect(schema.properties!.tabId).toEqual({ type: 'string', minLength: 1 });
    expect(schema.properties!.windowLabel).toEqual({ type: 'string', minLength: 1 });
    expect(schema.required).toEqual(['action']);
    expect(schema.additionalProperties).toBe(false);
  });
});

describe('changes made on disk by someone else', () => {
  beforeEach(() => start(['--open', path.join(workspace, 'a.md')]));
  const read = async () => (await call(client, 'document', { action: 'read' })).data;

  it('a clean tab reloads the file, with a new revision', async () => {
    const before = await read();
    await writeFile(path.join(workspace, 'a.md'), '# A, edited elsewhere\n');
    await eventually(async () => (await read()).content === '# A, edited elsewhere\n');
    expect((await read()).revision).not.toBe(before.revision);
  });

  it('a dirty tab keeps its text and reports the conflict; a deliberate save after that overwrites', async () => {
    await call(client, 'document', { action: 'write', content: '# mine\n', save: false });
    await writeFile(path.join(workspace, 'a.md'), '# theirs\n');
    await eventually(async () => (await read()).conflict !== undefined);
    expect(await read()).toMatchObject({
      content: '# mine\n',
      dirty: true,
      conflict: { reason: 'changed-on-disk' },
    });
    expect(await readFile(path.join(workspace, 'a.md'), 'utf8')).toBe('# theirs\n');
    expect((await ws({ action: 'save' })).isError).toBe(false);
    expect(await readFile(path.join(workspace, 'a.md'), 'utf8')).toBe('# mine\n');
  });

  it("a deleted file keeps the tab's text, marked as deleted on disk", async () => {
    await rm(path.join(workspace, 'a.md'));
    await eventually(async () => (await read()).conflict !== undefined);
    expect(await read()).toMatchObject({
      content: '# A\n',
      dirty: true,
      conflict: { reason: 'deleted-on-disk' },
    });
  });

  it('a file renamed within its folder is followed by its tab', async () => {
    await rename(path.join(workspace, 'a.md'), path.join(workspace, 'renamed.md'));
    await eventually(async () => (await read()).filePath === path.join(workspace, 'renamed.md'));
    expect(await read()).toMatchObject({ content: '# A\n', dirty: false });
  });
});
