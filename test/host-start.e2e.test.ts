import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, connectStdio, eventually, REPO, TempDirs } from './support/cli.js';

const PRELOAD = path.join(REPO, 'test/support/modules-at-exit.mjs');
const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** The CommonJS modules a `vmark mcp` loaded, from its start to its exit, after `work` ran. */
async function modulesLoaded(
  work: (client: Awaited<ReturnType<typeof connectStdio>>['client']) => Promise<void>,
) {
  const workspace = await temp.make();
  const out = path.join(await temp.make(), 'modules.txt');
  const { client } = await connectStdio(['--workspace', workspace], await temp.make('vmark-home-'), {
    env: {
      NODE_OPTIONS: `--import ${PRELOAD}`,
      VMARK_TEST_MODULES_OUT: out,
    },
  });
  await work(client);
  await client.close();
  let listed = '';
  await eventually(async () => {
    listed = await readFile(out, 'utf8').catch(() => '');
    return listed !== '';
  });
  return listed.split('\n');
}

const loads = (modules: readonly string[], name: string) =>
  modules.some((file) => file.includes(`${path.sep}node_modules${path.sep}${name}${path.sep}`));

// Every AI session starts a host: what only a browser tab or a page read needs loads with the
// first of them (ADR 63), not with the host; nor do ajv, which checks only an elicitation's answer,
// and yaml, which only a workflow patch or check and a front matter's check need (ADR 88).
describe('a host start', () => {
  it('loads no browser driver, no page reader, no JSON Schema validator and no YAML parser until a tool needs one', async () => {
    const modules = await modulesLoaded(async (client) => {
      await client.listTools();
      await call(client, 'session', { action: 'get_state' });
    });
    // The record works: it lists the CommonJS packages the host does load at its start.
    expect(loads(modules, path.join('@napi-rs', 'keyring'))).toBe(true);
    for (const name of [
      'playwright-core',
      'linkedom',
      'defuddle',
      path.join('@mozilla', 'readability'),
      'ajv',
      'ajv-formats',
      'yaml',
    ])
      expect({ name, loaded: loads(modules, name) }).toEqual({ name, loaded: false });
  });
});
