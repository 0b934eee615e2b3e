import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { call, connectStdio, eventually, runCli, TempDirs } from './support/cli.js';

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
      'browser',
      'browser_read',
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

/** A small valid user plugin, `id`, with one read-only tool of the same name. */
async function writeGreeter(dir: string, id: string): Promise<void> {
  const annotations = {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  };
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, 'main.js'),
    `import { defineAction, definePlugin, defineTool } from '@vmark/sdk';
const tool = defineTool({
  name: ${JSON.stringify(id)}, title: 'Greeter', description: 'Greets.',
  annotations: ${JSON.stringify(annotations)},
  actions: { greet: defineAction({ args: {}, run: () => ({ greeting: 'Hello from ${id}' }) }) },
});
export default definePlugin({ activate(context) { context.registerTool(tool); } });
`,
  );
  await writeFile(
    path.join(dir, 'manifest.json'),
    JSON.stringify({
      id,
      name: 'Greeter',
      version: '1.0.0',
      engines: { host: '^1.0.0' },
      main: 'main.js',
      contributes: { tools: [{ name: id, title: 'Greeter', annotations, actions: ['greet'] }] },
    }),
  );
}

it('a user plugin added while the host runs is loaded live, and one removed is unloaded', async () => {
  const home = await temp.make();
  const { client } = await connectStdio(['--workspace', await temp.make()], home);
  let listChanged = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanged += 1;
  });
  const toolNames = async () => (await client.listTools()).tools.map((t) => t.name);
  try {
    expect(await toolNames()).not.toContain('hello');
    // Made elsewhere and moved in whole, as an installer would; the plugins folder did not exist before.
    const staged = path.join(await temp.make(), 'hello');
    await writeGreeter(staged, 'hello');
    await mkdir(path.join(home, 'plugins'));
    await rename(staged, path.join(home, 'plugins', 'hello'));
    await eventually(() => listChanged > 0, 10_000);
    expect(await toolNames()).toContain('hello');
    expect((await call(client, 'hello', { action: 'greet' })).data).toEqual({ greeting: 'Hello from hello' });
    // What a terminal says agrees with what runs.
    const listed = await runCli(['plugins', 'list', '--json'], { VMARK_HOME: home });
    expect(JSON.parse(listed.stdout)).toContainEqual(expect.objectContaining({ id: 'hello', active: true }));

    // Written file by file into a new folder, manifest last: loaded once it is whole.
    const before = listChanged;
    await writeGreeter(path.join(home, 'plugins', 'second'), 'second');
    await eventually(() => listChanged > before, 10_000);
    await eventually(async () => (await toolNames()).includes('second'), 10_000);

    // An invalid one is reported, never loaded, and takes nothing down.
    await mkdir(path.join(home, 'plugins', 'broken'));
    await writeFile(path.join(home, 'plugins', 'broken', 'manifest.json'), '{ "id": "broken", ');

    const removed = listChanged;
    await rm(path.join(home, 'plugins', 'hello'), { recursive: true });
    await eventually(() => listChanged > removed, 10_000);
    expect(await toolNames()).not.toContain('hello');
    expect(await toolNames()).toEqual(expect.arrayContaining(['document', 'second']));
  } finally {
    await client.close();
  }
});
