import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CLI, type TempDirs } from './cli.js';

let shared: Promise<Browser> | undefined;

/**
 * One Chromium for the end-to-end files, started by the first that asks. They run one after
 * another on one module graph (vitest.config.ts), and each page is a context of its own, so
 * they share it: a browser of their own cost each file 1–2 s to start and stop. Playwright
 * ends it with the test process; one that crashed is started again for the next file.
 */
export function sharedChromium(): Promise<Browser> {
  shared ??= launchChromium().then((browser) => {
    browser.on('disconnected', () => (shared = undefined));
    return browser;
  });
  return shared;
}

/** Debian's Chromium, or the one `VMARK_CHROMIUM` names (DESIGN §7). */
function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.VMARK_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A running `vmark serve`: the page URL it printed first, and the MCP endpoint it printed next. */
export interface Served {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: string;
  readonly token: string;
  readonly mcpUrl: string;
  /** Every line it has printed on stdout so far, the first two included. */
  readonly stdout: readonly string[];
  stop(): Promise<void>;
}

export async function startServe(args: readonly string[], home: string): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], {
    env: { ...process.env, VMARK_HOME: home },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout });
  const got: string[] = [];
  const [first, second] = await new Promise<[string, string]>((resolve, reject) => {
    lines.on('line', (line) => {
      got.push(line);
      if (got.length === 2) resolve([got[0]!, got[1]!]);
    });
    child.once('exit', (code) => reject(new Error(`vmark serve exited with ${code}: ${stderr}`)));
  });
  const token = new URL(first).searchParams.get('token') ?? '';
  const mcpUrl = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(second)?.[1] ?? '';
  return {
    child,
    url: first,
    token,
    mcpUrl,
    stdout: got,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A real MCP SDK client on the MCP endpoint of a running `vmark serve`. */
export async function connectMcp(served: Served): Promise<Client> {
  const client = new Client({ name: 'vmark-e2e-ui', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(served.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
    }),
  );
  return client;
}

/** The text of the editor that is shown, as the person sees it (hidden marks left out). */
export function visibleText(page: Page): Promise<string> {
  return page.locator('.editor-host .cm-content').innerText();
}

/**
 * `vmark serve` with `args` and a page showing its editor. One after the other: both are work for
 * the CPU, and made side by side they took longer on two cores than in turn.
 */
export async function serveWithPage(
  browser: Browser,
  args: readonly string[],
  home: string,
): Promise<{ served: Served; page: Page }> {
  const served = await startServe(args, home);
  let page: Page | undefined;
  try {
    page = await newEditorPage(browser);
    return { served, page: await showEditor(page, served) };
  } catch (error) {
    await page?.close();
    await served.stop();
    throw error;
  }
}

/** A page at the size the tests and screenshots use. */
async function newEditorPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // Shorter than a test's 30 s, so a wait that never ends fails naming what it waited for.
  page.setDefaultTimeout(20_000);
  return page;
}

/** Points `page` at `served` and waits for the editor, as a person opening the URL sees it. */
async function showEditor(page: Page, served: Served): Promise<Page> {
  await page.goto(served.url);
  await page.locator('.editor-host .cm-content').waitFor();
  return page;
}

/** A test's editor: a fresh vault and VMARK_HOME, `vmark serve` on them, its page, and an AI client. */
export interface EditorSession {
  readonly vault: string;
  readonly home: string;
  readonly served: Served;
  readonly page: Page;
  readonly client: Client;
  close(): Promise<void>;
}

/** Writes `files` (vault-relative) into a new vault and opens `open` in the editor. */
export async function startEditorSession(
  temp: TempDirs,
  browser: Browser,
  files: Readonly<Record<string, string>>,
  open: string,
): Promise<EditorSession> {
  const vault = await realpath(await temp.make('vmark-ui-vault-'));
  const home = await temp.make('vmark-ui-home-');
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(vault, name), text);
  const { served, page } = await serveWithPage(
    browser,
    ['--workspace', vault, '--open', path.join(vault, open)],
    home,
  );
  const client = await connectMcp(served);
  return {
    vault,
    home,
    served,
    page,
    client,
    async close() {
      await client.close();
      await page.close();
      await served.stop();
    },
  };
}
