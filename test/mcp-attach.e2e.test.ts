import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRunningHosts } from '../core/control/host-file.js';
import { call, connectStdio, eventually, runCli, TempDirs } from './support/cli.js';
import { connectMcp, sharedChromium, type Served, startServe, visibleText } from './support/ui.js';

/*
 * One host for the person and the AI: `vmark serve` runs the editor, and an AI
 * client's `vmark mcp` (stdio) with the same VMARK_HOME attaches to it instead
 * of starting a host of its own, so what the AI writes is what the person sees.
 */

const temp = new TempDirs();
let served: Served;
let vault: string;
let home: string;

/** The stderr of a `vmark mcp` child, as it arrives. */
function stderrOf(transport: StdioClientTransport): { text: string } {
  const captured = { text: '' };
  transport.stderr?.on('data', (chunk: Buffer) => (captured.text += chunk.toString()));
  return captured;
}

async function attach(args: readonly string[] = [], env: Record<string, string> = {}) {
  const { client, transport } = await connectStdio(args, home, { env });
  return { client, transport, stderr: stderrOf(transport) };
}

beforeAll(async () => {
  vault = await realpath(await temp.make('vmark-attach-vault-'));
  home = await temp.make('vmark-attach-home-');
  await writeFile(path.join(vault, 'Welcome.md'), '# Welcome\n\nHello.\n');
  await mkdir(path.join(vault, 'notes'));
  await writeFile(path.join(vault, 'notes', 'todo.md'), 'first\n');
  served = await startServe(['--workspace', vault, '--open', path.join(vault, 'Welcome.md')], home);
});
afterAll(async () => {
  await served?.stop();
  await temp.cleanup();
});

/** A raw request to the UI port, so that any header a hostile page could send can be tried. */
function status(url: string, headers: Record<string, string>, method = 'POST'): Promise<number> {
  const { port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    );
  });
}

describe('vmark serve: MCP at /mcp of the UI port', () => {
  it('names /mcp on the page’s own port as its second line, and announces itself in a 0600 host file', async () => {
    expect(served.mcpUrl).toBe(`${new URL(served.url).origin}/mcp`);
    const hosts = await listRunningHosts(home);
    expect(hosts).toHaveLength(1);
    expect(hosts[0]).toMatchObject({
      pid: served.child.pid,
      serve: { uiUrl: served.url, mcpUrl: served.mcpUrl, token: served.token, workspaceRoots: [vault] },
    });
    const file = path.join(home, 'hosts', `${served.child.pid}.json`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('refuses a missing or wrong token (401) and a foreign Host or Origin (403)', async () => {
    const bearer = { authorization: `Bearer ${served.token}` };
    const { port } = new URL(served.url);
    expect(await status(served.mcpUrl, bearer)).toBe(200);
    expect(await status(served.mcpUrl, {})).toBe(401);
    expect(await status(served.mcpUrl, { authorization: 'Bearer wrong' })).toBe(401);
    // The page's ?token= is no bearer: MCP takes the header only.
    expect(await status(`${served.mcpUrl}?token=${served.token}`, {})).toBe(401);
    expect(await status(served.mcpUrl, { ...bearer, host: `attacker.example:${port}` })).toBe(403);
    expect(await status(served.mcpUrl, { ...bearer, origin: 'http://attacker.example' })).toBe(403);
  });
});

describe('a 10 MiB document.write to a running vmark serve (the SDK’s own HTTP limit is 4 MiB)', () => {
  /** A 10 MiB Markdown text with a line of its own at the top. */
  const bigText = (first: string) =>
    `# ${first}\n\n` + 'A line of prose that fills the document.\n'.repeat(262_144);

  async function writeBig(client: Client, name: string): Promise<void> {
    const file = path.join(vault, 'notes', name);
    await writeFile(file, 'small\n');
    const opened = await call(client, 'workspace', { action: 'open', filePath: file });
    expect(opened.isError).toBe(false);
    const content = bigText(name);
    expect(Buffer.byteLength(content)).toBeGreaterThan(10 * 1024 * 1024);
    const written = await call(client, 'document', {
      action: 'write',
      tabId: opened.data.tabId,
      content,
    });
    expect(written.isError).toBe(false);
    expect(written.data).toMatchObject({ saved: true });
    expect(await readFile(file, 'utf8')).toBe(content);
  }

  it('succeeds through an attached vmark mcp (stdio, relayed over HTTP)', async () => {
    const ai = await attach();
    try {
      await eventually(() => ai.stderr.text.includes('attached to the running editor'));
      await writeBig(ai.client, 'attached-big.md');
    } finally {
      await ai.client.close();
    }
  });

  it('succeeds from an SDK client on the HTTP endpoint itself', async () => {
    const client = await connectMcp(served);
    try {
      await writeBig(client, 'http-big.md');
    } finally {
      await client.close();
    }
  });
});

describe('vmark mcp attaches to a running vmark serve of the same VMARK_HOME', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await sharedChromium();
  });
  afterAll(async () => {});

  it('lists the host’s tools and writes the document open in the editor: the person sees it', async () => {
    const page = await browser.newPage();
    const ai = await attach();
    const other: Client = await connectMcp(served);
    try {
      await page.goto(served.url);
      await page.locator('.editor-host .cm-content').waitFor();
      expect(await visibleText(page)).toContain('Hello.');

      const tools = (await ai.client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual((await other.listTools()).tools.map((t) => t.name));
      // Attached, not a host of its own: still one host file, and it says so on stderr.
      expect(await listRunningHosts(home)).toHaveLength(1);
      await eventually(() =>
        ai.stderr.text.includes(`attached to the running editor (pid ${served.child.pid})`),
      );

      const write = await call(ai.client, 'document', {
        action: 'write',
        content: '# Welcome\n\nWritten by the AI.\n',
      });
      expect(write.isError).toBe(false);
      const seen = await call(other, 'document', { action: 'read' });
      expect(seen.data).toMatchObject({
        content: '# Welcome\n\nWritten by the AI.\n',
        revision: write.data.revision,
      });
      await eventually(async () => (await visibleText(page)).includes('Written by the AI.'));
    } finally {
      await ai.client.close();
      await other.close();
      await page.close();
    }
  });

  it('opens the files named with --open in the running editor, and refuses one outside its scope', async () => {
    const page = await browser.newPage();
    const todo = path.join(vault, 'notes', 'todo.md');
    const ai = await attach(['--open', todo]);
    try {
      await page.goto(served.url);
      // A tab is titled after the file's name without its extension.
      await page.locator('.tab', { hasText: 'todo' }).waitFor();
    } finally {
      await ai.client.close();
      await page.close();
    }
    const outside = path.join(await temp.make('vmark-attach-outside-'), 'secret.md');
    await writeFile(outside, 'not yours\n');
    const refused = await runCli(['mcp', '--open', outside], { VMARK_HOME: home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`refused to open ${outside}`);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).not.toContain(served.token);
  });

  it('relays tools/list_changed when a plugin is disabled from a terminal', async () => {
    const ai = await attach();
    let notified = 0;
    ai.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified++;
    });
    try {
      await ai.client.listTools();
      expect((await runCli(['plugins', 'disable', 'workflow'], { VMARK_HOME: home })).code).toBe(0);
      await eventually(() => notified > 0, 10_000);
      expect((await ai.client.listTools()).tools.map((t) => t.name)).not.toContain('workflow');
    } finally {
      await runCli(['plugins', 'enable', 'workflow'], { VMARK_HOME: home });
      await ai.client.close();
    }
  });

  it('presents VMARK_MCP_TOKEN, so the principal is the installed client; without it, nobody', async () => {
    const installed = await runCli(['mcp', 'install', '--client', 'attach-client'], { VMARK_HOME: home });
    const token = (JSON.parse(installed.stdout) as { mcpServers: { vmark: { env: Record<string, string> } } })
      .mcpServers.vmark.env.VMARK_MCP_TOKEN!;
    const resolve = {
      action: 'resolve',
      workspace_root: vault,
      txf: '0198c0de-0000-7000-8000-00000000000a',
      input: 0,
      resolution: 'accept-newer',
    };
    const named = await attach([], { VMARK_MCP_TOKEN: token });
    const anonymous = await attach();
    const unknown = await attach([], { VMARK_MCP_TOKEN: 'not-an-installed-credential' });
    try {
      expect((await call(named.client, 'coherence_resolve', resolve)).text).toBe(
        'no live delegation authorizes "attach-client" for resolve.accept-newer',
      );
      expect((await call(anonymous.client, 'coherence_resolve', resolve)).text).toMatch(
        /no VMark client credential/,
      );
      // An unknown credential names nobody, as it would with a private host.
      expect((await call(unknown.client, 'coherence_resolve', resolve)).text).toMatch(
        /no VMark client credential/,
      );
      expect(named.stderr.text + anonymous.stderr.text).not.toContain(token);
    } finally {
      await Promise.all([named.client.close(), anonymous.client.close(), unknown.client.close()]);
      await runCli(['mcp', 'uninstall', '--client', 'attach-client'], { VMARK_HOME: home });
    }
  });

  it('serves a private host for another --workspace, or with VMARK_NO_ATTACH=1', async () => {
    const elsewhere = await realpath(await temp.make('vmark-attach-elsewhere-'));
    await writeFile(path.join(elsewhere, 'mine.md'), 'private\n');
    const other = await attach(['--workspace', elsewhere, '--open', path.join(elsewhere, 'mine.md')]);
    const isolated = await attach(['--open', path.join(vault, 'Welcome.md')], { VMARK_NO_ATTACH: '1' });
    try {
      expect((await call(other.client, 'document', { action: 'read' })).data).toMatchObject({
        content: 'private\n',
      });
      expect(other.stderr.text).toContain(`not started on ${elsewhere}; serving a private host`);
      await call(isolated.client, 'session', { action: 'get_state' });
      // Each private host announces itself (in the background) besides the editor.
      await eventually(async () => (await listRunningHosts(home)).length === 3);
      expect(isolated.stderr.text).not.toContain('attached');
    } finally {
      await Promise.all([other.client.close(), isolated.client.close()]);
    }
  });
});

describe('when the running host goes away', () => {
  it('the attached vmark mcp ends with a clear line on stderr', async () => {
    const ownHome = await temp.make('vmark-attach-dying-');
    const dying = await startServe(['--workspace', vault], ownHome);
    const { client, transport } = await connectStdio([], ownHome);
    const stderr = stderrOf(transport);
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    try {
      await client.listTools();
      await dying.stop();
      await eventually(() => closed, 15_000);
      expect(stderr.text).toContain('has gone away; the MCP session ends');
    } finally {
      await client.close();
    }
  });
});

describe('vmark app', () => {
  /** Stands in for Chromium: records how it was started and the page it was given, then exits. */
  async function fakeBrowser(dir: string): Promise<{ program: string; record: string }> {
    const program = path.join(dir, 'fake-chromium');
    const record = path.join(dir, 'record.json');
    await writeFile(
      program,
      `#!${process.execPath}\n` +
        "const fs = require('node:fs');\n" +
        "const app = process.argv.find((a) => a.startsWith('--app='));\n" +
        'const file = app ? new URL(app.slice(6)) : null;\n' +
        `fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify({ args: process.argv.slice(2), ` +
        "page: file ? fs.readFileSync(file, 'utf8') : null, mode: file ? fs.statSync(file).mode & 0o777 : null }));\n",
    );
    await chmod(program, 0o755);
    return { program, record };
  }

  interface Recorded {
    args: string[];
    page: string;
    mode: number;
  }

  it('opens the running editor in a Chromium --app window with a profile under VMARK_HOME, the token off the command line', async () => {
    const { program, record } = await fakeBrowser(await temp.make('vmark-app-'));
    const result = await runCli(['app'], { VMARK_HOME: home, VMARK_CHROMIUM: program, VMARK_ELECTRON: '' });
    expect(result.code).toBe(0);
    const seen = JSON.parse(await readFile(record, 'utf8')) as Recorded;
    expect(seen.args).toContain(`--user-data-dir=${path.join(home, 'app-chromium')}`);
    expect(seen.args.join(' ')).not.toContain(served.token);
    expect(seen.page).toContain(`url=${served.url.replace(/&/g, '&#38;')}`);
    expect(seen.mode).toBe(0o600);
    expect(result.stderr).toContain(`running host (pid ${served.child.pid})`);
    // The page that carried the token is gone once the window closed.
    const opener = new URL(seen.args.find((a) => a.startsWith('--app='))!.slice(6));
    await expect(stat(opener)).rejects.toThrow(/ENOENT/);
  });

  it('starts a host of its own when none runs, and stops it with the window', async () => {
    const ownHome = await temp.make('vmark-app-home-');
    const { program, record } = await fakeBrowser(await temp.make('vmark-app-'));
    const result = await runCli(['app', '--workspace', vault], {
      VMARK_HOME: ownHome,
      VMARK_CHROMIUM: program,
      VMARK_ELECTRON: '',
    });
    expect(result.code).toBe(0);
    const seen = JSON.parse(await readFile(record, 'utf8')) as Recorded;
    expect(seen.page).toMatch(/url=http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}"/);
    expect(result.stderr).toContain('closing its window stops this host');
    expect(await listRunningHosts(ownHome)).toEqual([]);
  });

  it('names what is missing when VMARK_CHROMIUM is not a program, and starts nothing', async () => {
    const ownHome = await temp.make('vmark-app-home-');
    const result = await runCli(['app'], {
      VMARK_HOME: ownHome,
      VMARK_CHROMIUM: '/nonexistent/chromium',
      VMARK_ELECTRON: '',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'VMARK_CHROMIUM names /nonexistent/chromium, which is not an executable file',
    );
    expect(await listRunningHosts(ownHome)).toEqual([]);
  });

  it('says why the window program failed: its exit code and the end of its stderr', async () => {
    const ownHome = await temp.make('vmark-app-home-');
    const program = path.join(await temp.make('vmark-app-'), 'failing-browser');
    // A real program that fails as a browser does, after some chatter.
    await writeFile(
      program,
      '#!/bin/sh\nfor i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do echo "noise $i" >&2; done\n' +
        'echo "could not open a window here" >&2\nexit 3\n',
      { mode: 0o755 },
    );
    const result = await runCli(['app', '--workspace', vault], {
      VMARK_HOME: ownHome,
      VMARK_CHROMIUM: program,
      VMARK_ELECTRON: '',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`vmark: ${program} exited with code 3; the end of its stderr:\n`);
    expect(result.stderr).toContain('  could not open a window here\n');
    // The tail, not all of it.
    expect(result.stderr).toContain('  noise 15\n');
    expect(result.stderr).not.toContain('noise 1\n');
    expect(await listRunningHosts(ownHome)).toEqual([]);
  });

  it.skipIf(!existsSync('/usr/bin/chromium'))(
    "starts Debian's Chromium as this user may (as root: --no-sandbox) and, with no display, says why it closed",
    async () => {
      const ownHome = await temp.make('vmark-app-home-');
      const result = await runCli(['app', '--workspace', vault], {
        VMARK_HOME: ownHome,
        VMARK_CHROMIUM: '/usr/bin/chromium',
        VMARK_ELECTRON: '',
        DISPLAY: '',
        WAYLAND_DISPLAY: '',
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('vmark: /usr/bin/chromium exited with code');
      // Chromium's own reason, passed on.
      expect(result.stderr).toMatch(/Missing X server or \$DISPLAY|platform failed to initialize/);
      expect(result.stderr).not.toContain('Running as root without --no-sandbox');
      if (process.getuid?.() === 0) expect(result.stderr).toContain('without Chromium’s sandbox');
    },
  );

  it('refuses a bad --port', async () => {
    const result = await runCli(['app', '--port', '70000'], { VMARK_HOME: home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--port must be 0–65535, got 70000');
  });
});
