import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectStdio, runCli, TempDirs } from './support/cli.js';

/*
 * execute_js and saved sessions (browser part 2) through the built CLI with the real SDK
 * client: each call approved on its own, for exactly what it does; a script runs in the
 * isolated world; a saved session lives in the OS keychain and never reaches the client.
 */

const temp = new TempDirs();
let server: Server;
let origin: string;
let otherOrigin: string;

/** A page that keeps a secret in its own JavaScript and sets a cookie and a localStorage item. */
const PAGE = `<!doctype html><title>Account</title><h1>Account</h1>
<script>
  window.secret = 'page-only';
  if (location.search === '?set') {
    localStorage.setItem('token', 'ls-value-7f3a91');
    document.cookie = 'sid=cookie-value-b81c24; path=/';
  }
</script>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  origin = `http://127.0.0.1:${port}`;
  otherOrigin = `http://localhost:${port}`;
});
afterAll(async () => {
  server.close();
  await temp.cleanup();
});

async function connect(
  home: string,
  elicitation?: 'accept' | 'decline',
): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const { client } = await connectStdio([], home, {
    env: { VMARK_BROWSER_ALLOW_PRIVATE: '1' },
    ...(elicitation ? { elicitation, onElicit: (message: string) => asked.push(message) } : {}),
  });
  return { client, asked };
}

describe('execute_js', () => {
  it('runs the script a person approved, in the isolated world, and marks the result untrusted', async () => {
    const { client, asked } = await connect(await temp.make(), 'accept');
    try {
      await call(client, 'browser', { action: 'open', url: `${origin}/` });
      const script = 'return { title: document.title, pageGlobal: typeof window.secret };';
      const run = await call(client, 'browser', { action: 'execute_js', script });
      expect(run.data).toMatchObject({
        result: { title: 'Account', pageGlobal: 'undefined' },
        untrusted: true,
      });
      // The person was shown the whole script, and who asks.
      expect(asked.at(-1)).toContain(script);
      expect((await call(client, 'browser', { action: 'execute_js', script: 'return;' })).data).toMatchObject(
        {
          result: null,
        },
      );
      const thrown = await call(client, 'browser', {
        action: 'execute_js',
        script: 'throw new TypeError("nope");',
      });
      expect(thrown.text).toMatch(/^EVAL_FAILED: .*TypeError: nope/);
      const bigint = await call(client, 'browser', { action: 'execute_js', script: 'return 1n;' });
      expect(bigint.text).toMatch(/^EVAL_FAILED: the result is not JSON-serializable/);
      const huge = await call(client, 'browser', {
        action: 'execute_js',
        script: `return "${'中'.repeat(30_000)}";`,
      });
      expect(huge.isError).toBe(true);
      expect(huge.text).toContain('at most 65536 bytes');
    } finally {
      await client.close();
    }
  });

  it('is refused when the person declines, and waits for a person when nobody can be asked', async () => {
    const declined = await connect(await temp.make(), 'decline');
    try {
      await call(declined.client, 'browser', { action: 'open', url: `${origin}/` });
      const refused = await call(declined.client, 'browser', { action: 'execute_js', script: 'return 1;' });
      expect(refused.data).toMatchObject({ needsApproval: true, denied: true, operation: 'eval' });
    } finally {
      await declined.client.close();
    }
    const home = await temp.make();
    const nobody = await connect(home);
    try {
      await call(nobody.client, 'browser', { action: 'open', url: `${origin}/` });
      const waiting = await call(nobody.client, 'browser', { action: 'execute_js', script: 'return "X";' });
      expect(waiting.text).toMatch(
        /^approval required: 'eval' on http:\/\/127\.0\.0\.1:\d+\/\. Ask the user/,
      );
      const { requestId } = waiting.data as { requestId: string };
      expect((await runCli(['approvals', 'allow', requestId], { VMARK_HOME: home })).code).toBe(0);
      // The approval was for script X: script Y is asked about on its own.
      const other = await call(nobody.client, 'browser', { action: 'execute_js', script: 'return "Y";' });
      expect(other.data).toMatchObject({ needsApproval: true });
      expect((other.data as { requestId: string }).requestId).not.toBe(requestId);
      expect(
        (await call(nobody.client, 'browser', { action: 'execute_js', script: 'return "X";' })).data,
      ).toMatchObject({
        result: 'X',
      });
    } finally {
      await nobody.client.close();
    }
  });

  it('stops a script that never ends', async () => {
    const { client } = await connect(await temp.make(), 'accept');
    try {
      await call(client, 'browser', { action: 'open', url: `${origin}/` });
      const spun = await call(client, 'browser', { action: 'execute_js', script: 'for (;;) {}' });
      expect(spun.text).toMatch(/^EVAL_TIMEOUT: /);
      // The tab still answers.
      expect(
        (await call(client, 'browser', { action: 'execute_js', script: 'return 2;' })).data,
      ).toMatchObject({
        result: 2,
      });
    } finally {
      await client.close();
    }
  });
});

/** Whether a Secret Service is reachable here (CI starts one; see .ci/run). */
const keychain =
  process.env.DBUS_SESSION_BUS_ADDRESS !== undefined && process.env.DBUS_SESSION_BUS_ADDRESS !== '';

describe('session_save and session_load', () => {
  it.runIf(keychain)(
    'keep a session in the keychain, never showing a value, and load it onto its own origin only',
    async () => {
      const home = await temp.make();
      const { client } = await connect(home, 'accept');
      const responses: string[] = [];
      const logged = async (tool: string, args: Record<string, unknown>) => {
        const result = await call(client, tool, args);
        responses.push(result.text);
        return result;
      };
      try {
        await logged('browser', { action: 'open', url: `${origin}/?set` });
        const saved = await logged('browser', { action: 'session_save', handle: ' work-1 ' });
        expect(saved.data).toMatchObject({ saved: true, handle: 'work-1', localStorage: 1, cookies: 1 });
        // Clear the page's state, then load it back.
        await logged('browser', {
          action: 'execute_js',
          script: 'localStorage.clear(); document.cookie = "sid=; max-age=0; path=/"; return true;',
        });
        expect((await logged('browser', { action: 'session_load', handle: 'work-1' })).data).toEqual({
          loaded: true,
          handle: 'work-1',
        });
        await logged('browser', { action: 'navigate', url: `${origin}/` });
        const restored = await logged('browser', {
          action: 'execute_js',
          script:
            'return { token: localStorage.getItem("token") !== null, sid: document.cookie.includes("sid=") };',
        });
        expect(restored.data).toMatchObject({ result: { token: true, sid: true } });
        // Onto another origin: refused.
        await logged('browser', { action: 'navigate', url: `${otherOrigin}/` });
        const elsewhere = await logged('browser', { action: 'session_load', handle: 'work-1' });
        expect(elsewhere.text).toMatch(/^SESSION_ORIGIN_MISMATCH: /);
        expect((await logged('browser', { action: 'session_load', handle: 'nope' })).text).toMatch(
          /^SESSION_NOT_FOUND: /,
        );
      } finally {
        await client.close();
      }
      // The values are nowhere a client or a file of vmark's could give them away.
      for (const value of ['ls-value-7f3a91', 'cookie-value-b81c24']) {
        expect(responses.join('\n')).not.toContain(value);
        for (const file of await filesUnder(home))
          expect(await readFile(file, 'latin1')).not.toContain(value);
      }
    },
  );

  it.runIf(!keychain)(
    'answers KEYCHAIN_UNAVAILABLE where no keychain is reachable, and writes no file instead',
    async () => {
      const home = await temp.make();
      const { client } = await connect(home, 'accept');
      try {
        await call(client, 'browser', { action: 'open', url: `${origin}/?set` });
        const saved = await call(client, 'browser', { action: 'session_save', handle: 'work-1' });
        expect(saved.text).toMatch(/^KEYCHAIN_UNAVAILABLE: /);
      } finally {
        await client.close();
      }
      for (const file of await filesUnder(home))
        expect(await readFile(file, 'latin1')).not.toContain('ls-value-7f3a91');
    },
  );

  it('refuses a handle outside [A-Za-z0-9._-] with the original message', async () => {
    const { client } = await connect(await temp.make(), 'accept');
    try {
      await call(client, 'browser', { action: 'open', url: `${origin}/` });
      const bad = await call(client, 'browser', { action: 'session_save', handle: 'a/b' });
      expect(bad.text).toContain("session_save requires a 'handle' matching [A-Za-z0-9._-] (1..128)");
    } finally {
      await client.close();
    }
  });
});

async function filesUnder(folder: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const file = path.join(folder, name);
    const info = await stat(file).catch(() => null);
    if (info?.isDirectory()) out.push(...(await filesUnder(file)));
    else if (info?.isFile()) out.push(file);
  }
  return out;
}
