import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFile, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, REPO, runCli, TempDirs } from './support/cli.js';

/*
 * `npm start` as the README describes it: the build prints nothing, so that the first line vmark
 * prints is the editor's address; the tour runs on a copy of examples/vault, so that it leaves the
 * repository's files as they are.
 */

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const scripts = async () =>
  (JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;

describe('the build npm start runs first', () => {
  it('bundles through scripts/bundle.mjs, which prints nothing', async () => {
    // The bundler's own command line prints a table of its files whatever its log level says.
    expect((await scripts()).build).toMatch(/&& node scripts\/bundle\.mjs$/);
    // In memory, so that the CLI other tests run is left alone.
    const child = spawn(process.execPath, [path.join(REPO, 'scripts/bundle.mjs'), '--dry-run']);
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toBe('');
  });

  it('is run without npm’s banner for it, so that vmark’s lines come next', async () => {
    expect((await scripts()).start).toBe('npm run build --silent && node scripts/start-tour.mjs');
  });
});

interface Tour {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[];
  stop(): Promise<number | null>;
}

/** What `npm start` runs once the build is done, with a port of its own and private folders. */
async function startTour(env: Record<string, string>): Promise<Tour> {
  const child = spawn(process.execPath, [path.join(REPO, 'scripts/start-tour.mjs'), '--port', '0'], {
    env: { ...process.env, ...env },
  });
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (lines.length === 3) resolve();
    });
    child.once('exit', (code) => reject(new Error(`start-tour exited with ${code}`)));
  });
  return {
    child,
    lines,
    stop: () =>
      new Promise((resolve) => {
        child.once('close', resolve);
        child.kill('SIGTERM');
      }),
  };
}

describe('npm start', () => {
  const example = path.join(REPO, 'examples/vault/Welcome.md');
  let original: string;
  let env: Record<string, string>;
  let tmp: string;

  beforeAll(async () => {
    original = await readFile(example, 'utf8');
    tmp = await realpath(await temp.make('vmark-tour-tmp-'));
    // The OS temp folder (TMPDIR) and VMARK_HOME of this test alone.
    env = { VMARK_HOME: await temp.make('vmark-tour-home-'), TMPDIR: tmp };
  });

  it('prints the editor’s address first, then the MCP endpoint, then where the tour’s copy is', async () => {
    const tour = await startTour(env);
    try {
      expect(tour.lines[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
      expect(tour.lines[1]).toMatch(/^MCP \(Streamable HTTP\): http:\/\/127\.0\.0\.1:\d+\/mcp/);
      expect(tour.lines[2]).toMatch(/^Tour vault: .+ \(a fresh copy of examples\/vault;/);
    } finally {
      expect(await tour.stop()).toBe(0);
    }
  });

  it('tours a copy: an assistant’s edit lands there, the repository’s example stays as it is, and the copy is kept', async () => {
    const tour = await startTour(env);
    const vault = /^Tour vault: (.+) \(/.exec(tour.lines[2]!)![1]!;
    expect(vault.startsWith(tmp + path.sep)).toBe(true);
    const client = new Client({ name: 'tour', version: '1.0.0' });
    const token = new URL(tour.lines[0]!).searchParams.get('token')!;
    const mcp = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(tour.lines[1]!)![1]!;
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcp), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const { data } = await call(client, 'document', { action: 'read' });
      expect(data).toMatchObject({ filePath: path.join(vault, 'Welcome.md'), content: original });
      const written = await call(client, 'document', {
        action: 'write',
        content: `${original}\nI was here.\n`,
      });
      expect(written.data).toMatchObject({ saved: true });
    } finally {
      await client.close();
      await tour.stop();
    }
    expect(await readFile(path.join(vault, 'Welcome.md'), 'utf8')).toBe(`${original}\nI was here.\n`);
    expect(await readFile(example, 'utf8')).toBe(original);

    // The next start opens the same copy, edits and all.
    const again = await startTour(env);
    await again.stop();
    expect(again.lines[2]).toBe(
      `Tour vault: ${vault} (your copy of examples/vault; edits there leave the repository as it is, ` +
        'and a new copy is made once you delete it)',
    );

    // Once it is gone, a fresh one.
    await rm(path.dirname(vault), { recursive: true });
    const fresh = await startTour(env);
    await fresh.stop();
    expect(fresh.lines[2]).toContain('(a fresh copy of examples/vault;');
    expect(fresh.lines[2]).not.toContain(vault);
  });

  it('passes vmark serve’s refusal on: a port in use ends it with serve’s message and code', async () => {
    const busy = await startTour(env);
    try {
      const port = new URL(busy.lines[0]!).port;
      const child = spawn(process.execPath, [path.join(REPO, 'scripts/start-tour.mjs'), '--port', port], {
        env: { ...process.env, ...env },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      expect(await new Promise((resolve) => child.on('close', resolve))).toBe(1);
      expect(stderr).toContain(`vmark: port ${port} on 127.0.0.1 is in use`);
    } finally {
      await busy.stop();
    }
    // Nothing of it keeps running.
    expect((await runCli(['approvals', 'list'], { VMARK_HOME: env.VMARK_HOME! })).stdout).toContain(
      'no running vmark host',
    );
  });
});
