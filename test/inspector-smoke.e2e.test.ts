import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { CLI, REPO, TempDirs } from './support/cli.js';
import { BUILTIN_TOOLS } from './support/builtin-tools.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

it('the MCP Inspector CLI lists the tools', async () => {
  const workspace = await temp.make();
  const { stdout } = await promisify(execFile)(
    'npx',
    [
      '--no-install',
      '@modelcontextprotocol/inspector',
      '--cli',
      process.execPath,
      CLI,
      'mcp',
      '--workspace',
      workspace,
      '--method',
      'tools/list',
    ],
    { cwd: REPO, env: { ...process.env, VMARK_HOME: await temp.make() } },
  );
  const listed = JSON.parse(stdout) as { tools: { name: string; annotations: Record<string, unknown> }[] };
  expect(listed.tools.map((t) => t.name)).toEqual(BUILTIN_TOOLS);
  expect(listed.tools.find((t) => t.name === 'session')!.annotations).toMatchObject({ readOnlyHint: true });
});
