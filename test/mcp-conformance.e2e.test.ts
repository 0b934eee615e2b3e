import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBearerProxy } from './support/bearer-proxy.js';
import { CLI, TempDirs } from './support/cli.js';
import { installConformanceSuite, runServerScenario } from './support/conformance-suite.js';

/**
 * The official MCP conformance suite against `vmark mcp --http`, on the scenarios that apply to a
 * server of tools only (the others call the reference server's own test tools, resources and
 * prompts). The suite's client sends no `Authorization`: a loopback proxy adds the token.
 */
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-error',
  'dns-rebinding-protection',
  'server-sse-multiple-streams',
  'logging-set-level',
];

const temp = new TempDirs();

describe('the official MCP conformance suite', () => {
  let server: ChildProcessWithoutNullStreams;
  let endpoint: { url: string; token: string };
  let proxy: Awaited<ReturnType<typeof startBearerProxy>>;

  beforeAll(async () => {
    const installed = installConformanceSuite();
    const home = await temp.make();
    server = spawn(process.execPath, [CLI, 'mcp', '--http'], { env: { ...process.env, VMARK_HOME: home } });
    const firstLine = await new Promise<string>((resolve) =>
      createInterface({ input: server.stdout }).once('line', resolve),
    );
    endpoint = JSON.parse(firstLine) as { url: string; token: string };
    proxy = await startBearerProxy(endpoint.url, endpoint.token);
    await installed;
  }, 300_000);

  afterAll(async () => {
    await proxy?.close();
    server?.kill();
    await temp.cleanup();
  });

  it.each(SCENARIOS)(
    'passes %s',
    async (scenario) => {
      const result = await runServerScenario(proxy.url, scenario);
      const failed = result.checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO');
      expect(failed, result.output).toEqual([]);
      expect(result.checks.length, result.output).toBeGreaterThan(0);
      expect(result.passed, result.output).toBe(true);
    },
    60_000,
  );

  it('runs with authentication on: the server itself refuses a request without the token', async () => {
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(401);
  });
});
