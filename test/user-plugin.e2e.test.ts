import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { call, connectStdio, TempDirs } from './support/cli.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

it('a user plugin in $VMARK_HOME/plugins imports @vmark/sdk (and its subpaths) and serves its own tool', async () => {
  const home = await temp.make();
  const dir = path.join(home, 'plugins', 'greeter');
  await mkdir(dir, { recursive: true });
  const annotations = {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  };
  await writeFile(
    path.join(dir, 'manifest.json'),
    JSON.stringify({
      id: 'greeter',
      name: 'Greeter',
      version: '1.0.0',
      engines: { host: '^1.0.0' },
      main: 'main.js',
      contributes: { tools: [{ name: 'greeter', title: 'Greeter', annotations, actions: ['greet'] }] },
    }),
  );
  await writeFile(
    path.join(dir, 'main.js'),
    `import { defineAction, definePlugin, defineTool, requiredString } from '@vmark/sdk';
import { parser } from '@vmark/sdk/markdown';
const greeter = defineTool({
  name: 'greeter', title: 'Greeter', description: 'Greets someone.',
  annotations: ${JSON.stringify(annotations)},
  actions: { greet: defineAction({ args: { name: requiredString('name') }, run: ({ name }) => ({ greeting: 'Hello, ' + name, parsedAs: parser.parse('# ' + name).topNode.firstChild.name }) }) },
});
export default definePlugin({ activate(context) { context.registerTool(greeter); } });
`,
  );
  const { client } = await connectStdio(['--workspace', await temp.make()], home);
  try {
    // Plugins activate in id order (dependencies first), built-in or not.
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'session',
      'workspace',
      'document',
      'selection',
      'coherence',
      'coherence_resolve',
      'greeter',
      'workflow',
    ]);
    expect((await call(client, 'greeter', { action: 'greet', name: 'Ada' })).data).toEqual({
      greeting: 'Hello, Ada',
      parsedAs: 'ATXHeading1',
    });
    expect((await call(client, 'greeter', { action: 'greet' })).text).toBe('name (string) is required');
  } finally {
    await client.close();
  }
});
