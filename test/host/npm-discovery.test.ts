import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../core/composition/host.js';
import { discoverPlugins } from '../../core/plugins/discovery.js';

/*
 * npm plugins: real package folders in `$VMARK_HOME/node_modules`, as
 * `npm install --prefix "$VMARK_HOME" <package>` lays them out. No network.
 */

let scratch: string;
let home: string;
let modules: string;
let builtinRoot: string;
const hosts: Host[] = [];

beforeEach(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'vmark-npm-plugins-'));
  home = path.join(scratch, 'home');
  modules = path.join(home, 'node_modules');
  builtinRoot = path.join(scratch, 'builtin');
  await mkdir(modules, { recursive: true });
  await mkdir(builtinRoot, { recursive: true });
});
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
  await rm(scratch, { recursive: true, force: true });
});

interface PackageSketch {
  readonly keywords?: unknown;
  /** The plugin id its manifest claims; no manifest.json when omitted. */
  readonly pluginId?: string;
  /** The tool its manifest declares and its main registers. */
  readonly tool?: string;
}

async function writePackage(dir: string, sketch: PackageSketch): Promise<string> {
  await mkdir(dir, { recursive: true });
  const name = path.relative(modules, dir).split(path.sep).join('/');
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ name, version: '1.0.0', type: 'module', keywords: sketch.keywords }),
  );
  if (sketch.pluginId === undefined) return dir;
  const tool = sketch.tool ?? `${sketch.pluginId}_tool`;
  const annotations = {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  };
  const manifest = {
    id: sketch.pluginId,
    name: `Plugin ${sketch.pluginId}`,
    version: '1.0.0',
    engines: { host: '^1.0.0' },
    main: 'main.js',
    contributes: { tools: [{ name: tool, title: `Tool ${tool}`, annotations, actions: ['get'] }] },
  };
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  await writeFile(
    path.join(dir, 'main.js'),
    `export default { [Symbol.for('vmark.plugin')]: true, activate(ctx) {
      ctx.registerTool({ name: ${JSON.stringify(tool)}, title: ${JSON.stringify(`Tool ${tool}`)},
        description: 'npm test tool', annotations: ${JSON.stringify(annotations)},
        actions: { get: { args: {}, run: () => ({}) } }, actionNames: ['get'] });
    } };`,
  );
  return dir;
}

async function start(): Promise<Host> {
  const host = await createHost({ home, builtinPluginDirs: [builtinRoot] });
  hosts.push(host);
  return host;
}

describe('npm plugins', () => {
  it('finds packages with the vmark-plugin keyword, scoped ones included, and runs them as source npm', async () => {
    const plain = await writePackage(path.join(modules, 'vmark-plugin-cites'), {
      keywords: ['markdown', 'vmark-plugin'],
      pluginId: 'cites',
    });
    const scoped = await writePackage(path.join(modules, '@acme', 'vmark-glossary'), {
      keywords: ['vmark-plugin'],
      pluginId: 'glossary',
    });
    const host = await start();
    const npm = host.plugins.reports().filter((r) => r.source === 'npm');
    expect(npm.map((r) => [r.id, r.dir, r.active])).toEqual([
      ['glossary', scoped, true],
      ['cites', plain, true],
    ]);
    expect(host.tools().map((t) => t.name)).toEqual(expect.arrayContaining(['cites_tool', 'glossary_tool']));
  });

  it('ignores packages without the keyword, unreadable package.json files, and dot folders', async () => {
    await writePackage(path.join(modules, 'left-pad'), { keywords: ['pad'], pluginId: 'left-pad' });
    await writePackage(path.join(modules, 'no-keywords'), { pluginId: 'no-keywords' });
    await writePackage(path.join(modules, 'odd-keywords'), { keywords: 'vmark-plugin', pluginId: 'odd' });
    await mkdir(path.join(modules, 'broken'));
    await writeFile(path.join(modules, 'broken', 'package.json'), '{ not json');
    await writePackage(path.join(modules, '.bin'), { keywords: ['vmark-plugin'], pluginId: 'hidden' });
    await writeFile(path.join(modules, '.package-lock.json'), '{}');
    expect(await discoverPlugins([{ dir: modules, source: 'npm' }])).toEqual([]);
  });

  it('lists a keyword-carrying package without a manifest.json, with the reason, and never runs it', async () => {
    const dir = await writePackage(path.join(modules, 'half-done'), { keywords: ['vmark-plugin'] });
    const host = await start();
    const report = host.plugins.reports().find((r) => r.dir === dir)!;
    expect(report).toMatchObject({ source: 'npm', active: false });
    expect(report.diagnostics.map((d) => d.message)).toEqual([
      'the npm package carries the "vmark-plugin" keyword but has no manifest.json',
    ]);
  });

  it('follows npm’s symlinked packages (npm link, workspaces)', async () => {
    const real = await writePackage(path.join(scratch, 'elsewhere', 'linked'), {
      keywords: ['vmark-plugin'],
      pluginId: 'linked',
    });
    await symlink(real, path.join(modules, 'linked'));
    const found = await discoverPlugins([{ dir: modules, source: 'npm' }]);
    expect(found.map((c) => [c.source, c.dir])).toEqual([['npm', path.join(modules, 'linked')]]);
  });

  it('keeps a built-in plugin over an npm package claiming its id, and reports the npm copy', async () => {
    await writePackage(path.join(builtinRoot, 'cites'), {
      keywords: ['vmark-plugin'],
      pluginId: 'cites',
      tool: 'builtin_cites',
    });
    const impostor = await writePackage(path.join(modules, 'vmark-cites'), {
      keywords: ['vmark-plugin'],
      pluginId: 'cites',
      tool: 'npm_cites',
    });
    const host = await start();
    const copies = host.plugins.reports().filter((r) => r.id === 'cites');
    expect(copies.map((r) => [r.source, r.active])).toEqual([
      ['builtin', true],
      ['npm', false],
    ]);
    expect(copies[1]!.dir).toBe(impostor);
    expect(copies[1]!.diagnostics.map((d) => d.message).join()).toMatch(/another plugin with id "cites"/);
    expect(host.tools().map((t) => t.name)).toContain('builtin_cites');
    expect(host.tools().map((t) => t.name)).not.toContain('npm_cites');
  });

  it('does not look in node_modules when user plugins are off', async () => {
    await writePackage(path.join(modules, 'vmark-plugin-cites'), {
      keywords: ['vmark-plugin'],
      pluginId: 'cites',
    });
    const host = await createHost({ home, builtinPluginDirs: [builtinRoot], userPlugins: false });
    hosts.push(host);
    expect(host.plugins.reports()).toEqual([]);
  });
});
