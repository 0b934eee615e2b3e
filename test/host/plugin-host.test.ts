import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HOST_API_VERSION, type HostHooks } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HostHooksToken } from '../../core/tokens/host-tokens.js';
import { createHost, type CreateHostOptions, type Host } from '../../core/composition/host.js';
import { LogHub, type LogRecord } from '../../core/log/log-hub.js';
import type { PluginReport } from '../../core/plugins/plugin-host.js';

/*
 * The plugin host against real folders: each test writes plain-ESM plugins
 * (manifest.json + main.js) into temporary built-in and user plugin roots and
 * starts a real host over a temporary VMARK_HOME. The plugins record what
 * happens to them in a global array, which is how the tests see activation
 * order, teardown, and code that must never run.
 */

const RECORD = '__vmarkPluginHostTest';
const recorded = globalThis as typeof globalThis & { [RECORD]?: string[] };
const log = (): string[] => recorded[RECORD] ?? [];

interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

interface ToolSketch {
  readonly name: string;
  readonly title?: string;
  readonly annotations?: Partial<Annotations>;
  readonly actions?: readonly string[];
}

interface PluginSketch {
  readonly id: string;
  /** Tells two copies of one id apart in the log; defaults to the id. */
  readonly label?: string;
  readonly version?: string;
  readonly engines?: string;
  readonly deps?: Record<string, string>;
  /** Declared in the manifest. */
  readonly tools?: readonly ToolSketch[];
  /** Registered by `activate`; defaults to the declared tools. */
  readonly registers?: readonly ToolSketch[];
  /** `activate` taps the `toolCalled` hook. */
  readonly taps?: boolean;
  /** `activate` throws this after registering its tools and taps. */
  readonly activateThrows?: string;
  /** `deactivate` throws this. */
  readonly deactivateThrows?: string;
  /** The default export carries no plugin brand. */
  readonly unbranded?: boolean;
}

const READ_ONLY: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

function fullTool(tool: ToolSketch) {
  return {
    name: tool.name,
    title: tool.title ?? `Tool ${tool.name}`,
    annotations: { ...READ_ONLY, ...tool.annotations },
    actions: [...(tool.actions ?? ['get'])],
  };
}

function manifestOf(sketch: PluginSketch): Record<string, unknown> {
  return {
    id: sketch.id,
    name: `Plugin ${sketch.id}`,
    version: sketch.version ?? '1.0.0',
    engines: { host: sketch.engines ?? '^1.0.0' },
    main: 'main.js',
    ...(sketch.deps ? { dependencies: sketch.deps } : {}),
    contributes: { tools: (sketch.tools ?? []).map(fullTool) },
  };
}

/** A plain-ESM plugin: no imports, the plugin brand set by hand as `definePlugin` would. */
function mainOf(sketch: PluginSketch): string {
  const label = JSON.stringify(sketch.label ?? sketch.id);
  const registers = JSON.stringify((sketch.registers ?? sketch.tools ?? []).map(fullTool));
  return `
const log = (entry) => { (globalThis[${JSON.stringify(RECORD)}] ??= []).push(entry); };
log('load:' + ${label});
const toTool = (t) => ({
  name: t.name,
  title: t.title,
  description: 'A test tool',
  annotations: t.annotations,
  actions: Object.fromEntries(t.actions.map((a) => [a, { args: {}, run: () => ({ tool: t.name, action: a }) }])),
  actionNames: t.actions,
});
export default {
  ${sketch.unbranded ? '' : "[Symbol.for('vmark.plugin')]: true,"}
  activate(ctx) {
    log('activate:' + ${label});
    for (const t of ${registers}) ctx.registerTool(toTool(t));
    ${sketch.taps ? `ctx.hooks.tap('toolCalled', (e) => log('toolCalled@' + ${label} + ':' + e.tool));` : ''}
    ${sketch.activateThrows ? `throw new Error(${JSON.stringify(sketch.activateThrows)});` : ''}
  },
  deactivate() {
    log('deactivate:' + ${label});
    ${sketch.deactivateThrows ? `throw new Error(${JSON.stringify(sketch.deactivateThrows)});` : ''}
  },
};
`;
}

let scratch: string;
let home: string;
let builtinRoot: string;
let userRoot: string;
const hosts: Host[] = [];

beforeEach(async () => {
  recorded[RECORD] = [];
  scratch = await mkdtemp(path.join(os.tmpdir(), 'vmark-plugin-host-'));
  home = path.join(scratch, 'home');
  builtinRoot = path.join(scratch, 'builtin');
  userRoot = path.join(home, 'plugins');
  await mkdir(builtinRoot, { recursive: true });
  await mkdir(userRoot, { recursive: true });
});

afterEach(async () => {
  vi.useRealTimers();
  // A wedged host may refuse to dispose; that is reported by the test that wedged it.
  for (const host of hosts.splice(0)) await host.dispose().catch(() => undefined);
  delete recorded[RECORD];
  await rm(scratch, { recursive: true, force: true });
});

async function writePlugin(root: string, folder: string, sketch: PluginSketch): Promise<string> {
  const dir = path.join(root, folder);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifestOf(sketch), null, 2));
  await writeFile(path.join(dir, 'main.js'), mainOf(sketch));
  return dir;
}

const builtin = (sketch: PluginSketch, folder = sketch.id) => writePlugin(builtinRoot, folder, sketch);
const user = (sketch: PluginSketch, folder = sketch.id) => writePlugin(userRoot, folder, sketch);

async function startHost(options: Partial<CreateHostOptions> = {}): Promise<Host> {
  const host = await createHost({ home, builtinPluginDirs: [builtinRoot], ...options });
  hosts.push(host);
  return host;
}

function report(host: Host, id: string): PluginReport {
  const found = host.plugins.reports().filter((r) => r.id === id);
  expect(found, `one report for ${id}`).toHaveLength(1);
  return found[0]!;
}

const toolNames = (host: Host) =>
  host
    .tools()
    .map((t) => t.name)
    .sort();
const tapNames = (host: Host) =>
  host.container.get<HostHooks>(HostHooksToken).toolCalled.taps.map((t) => t.name);
const errorsOf = (r: PluginReport) =>
  r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);

async function readState(): Promise<unknown> {
  return JSON.parse(await readFile(path.join(home, 'plugins.json'), 'utf8')) as unknown;
}

/** Time enough for a folder watch, a settle and a discovery on a busy machine. */
const SLOW = 10_000;

/** Polls until `check` holds or about two seconds have passed; the caller asserts afterwards. */
async function eventually(check: () => boolean, timeoutMs = 2_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('PluginHost', () => {
  describe('discovery', () => {
    it('finds built-in plugins and user plugins under $VMARK_HOME/plugins, each with its source and folder', async () => {
      const alphaDir = await builtin({ id: 'alpha', tools: [{ name: 'alpha_tool' }] });
      const betaDir = await user({ id: 'beta', tools: [{ name: 'beta_tool' }] });
      const host = await startHost();

      expect(report(host, 'alpha')).toMatchObject({
        name: 'Plugin alpha',
        version: '1.0.0',
        source: 'builtin',
        dir: alphaDir,
        enabled: true,
        active: true,
        diagnostics: [],
        tools: ['alpha_tool'],
      });
      expect(report(host, 'beta')).toMatchObject({
        source: 'user',
        dir: betaDir,
        active: true,
        diagnostics: [],
      });
      expect(toolNames(host)).toEqual(['alpha_tool', 'beta_tool']);
    });

    it('does not look in $VMARK_HOME/plugins when user plugins are off', async () => {
      await builtin({ id: 'alpha' });
      await user({ id: 'beta' });
      const host = await startHost({ userPlugins: false });
      expect(host.plugins.reports().map((r) => r.id)).toEqual(['alpha']);
      expect(log()).not.toContain('load:beta');
    });

    it('ignores folders without a manifest.json and stray files in a plugin root', async () => {
      await builtin({ id: 'alpha' });
      await mkdir(path.join(builtinRoot, 'not-a-plugin'));
      await writeFile(path.join(builtinRoot, 'README.md'), '# hi');
      const host = await startHost();
      expect(host.plugins.reports().map((r) => r.id)).toEqual(['alpha']);
    });

    it('starts with no plugins when the plugin roots do not exist', async () => {
      const host = await startHost({ builtinPluginDirs: [path.join(scratch, 'nowhere')] });
      await rm(userRoot, { recursive: true });
      expect(host.plugins.reports()).toEqual([]);
      expect(host.tools()).toEqual([]);
    });
  });

  describe('plugins that must not load', () => {
    it('lists a plugin whose engines.host the host API does not satisfy, with a diagnostic, and never runs its code', async () => {
      await builtin({ id: 'future', engines: '^2.0.0', tools: [{ name: 'future_tool' }] });
      await builtin({ id: 'present' });
      const host = await startHost();

      const future = report(host, 'future');
      expect(future.active).toBe(false);
      expect(future.tools).toEqual(['future_tool']);
      expect(errorsOf(future)).toHaveLength(1);
      expect(errorsOf(future)[0]).toContain(HOST_API_VERSION);
      expect(errorsOf(future)[0]).toContain('^2.0.0');
      expect(log()).not.toContain('load:future');
      expect(log()).not.toContain('activate:future');
      expect(toolNames(host)).toEqual([]);
      expect(report(host, 'present').active).toBe(true);
    });

    it('lists a plugin whose manifest.json is not valid JSON, with a diagnostic, by its folder', async () => {
      const dir = path.join(userRoot, 'broken');
      await mkdir(dir);
      await writeFile(path.join(dir, 'manifest.json'), '{ "id": "broken", ');
      await writeFile(path.join(dir, 'main.js'), mainOf({ id: 'broken' }));
      await builtin({ id: 'alpha' });
      const host = await startHost();

      const broken = host.plugins.reports().find((r) => r.dir === dir);
      expect(broken).toMatchObject({ source: 'user', active: false });
      expect(broken!.diagnostics).toHaveLength(1);
      expect(broken!.diagnostics[0]).toMatchObject({ severity: 'error' });
      expect(broken!.diagnostics[0]!.message).toContain('manifest.json is not valid JSON');
      expect(log()).toEqual(['load:alpha', 'activate:alpha']);
    });

    it('lists a manifest that fails validation under the id it claims, without running it', async () => {
      const dir = path.join(userRoot, 'bad');
      await mkdir(dir);
      await writeFile(
        path.join(dir, 'manifest.json'),
        JSON.stringify({ ...manifestOf({ id: 'bad' }), main: '../x.js' }),
      );
      await writeFile(path.join(dir, 'main.js'), mainOf({ id: 'bad' }));
      const host = await startHost();
      const bad = report(host, 'bad');
      expect(bad.active).toBe(false);
      expect(errorsOf(bad)).toEqual(['main "../x.js" must be a path inside the plugin folder']);
      expect(log()).toEqual([]);
    });

    it('refuses a main module whose default export is not a plugin', async () => {
      await builtin({ id: 'plain', unbranded: true });
      const host = await startHost();
      const plain = report(host, 'plain');
      expect(plain.active).toBe(false);
      expect(errorsOf(plain)).toEqual([
        'activation failed: the default export of main.js is not a plugin (use definePlugin)',
      ]);
    });

    it('keeps the built-in copy of an id that a user plugin also claims, and reports the user copy', async () => {
      const builtinDir = await builtin({ id: 'dup', label: 'dup-builtin' });
      await user({ id: 'dup', label: 'dup-user' });
      const host = await startHost();
      const [first, second] = host.plugins.reports().filter((r) => r.id === 'dup');
      expect(first).toMatchObject({ source: 'builtin', active: true, diagnostics: [] });
      expect(second).toMatchObject({ source: 'user', active: false });
      expect(errorsOf(second!)).toEqual([`another plugin with id "dup" was found first (${builtinDir})`]);
      expect(log()).not.toContain('activate:dup-user');
    });

    it('never runs an incompatible copy of an id when a compatible copy of it runs', async () => {
      await builtin({ id: 'dup', label: 'dup-builtin', engines: '^2.0.0' });
      await user({ id: 'dup', label: 'dup-user' });
      const host = await startHost();

      expect(log()).not.toContain('activate:dup-builtin');
      expect(log()).toContain('activate:dup-user');
      const [incompatible, compatible] = host.plugins.reports().filter((r) => r.id === 'dup');
      expect(incompatible).toMatchObject({ source: 'builtin', active: false });
      expect(compatible).toMatchObject({ source: 'user', active: true });
    });
  });

  describe('activation', () => {
    it('activates dependencies before their dependents, whatever order the folders are found in', async () => {
      await builtin({ id: 'app', deps: { lib: '^1.0.0', util: '^1.0.0' } }, 'a-app');
      await builtin({ id: 'lib', deps: { util: '^1.0.0' } }, 'b-lib');
      await builtin({ id: 'util' }, 'c-util');
      await builtin({ id: 'solo' }, 'd-solo');
      await startHost();
      expect(log().filter((e) => e.startsWith('activate:'))).toEqual([
        'activate:solo',
        'activate:util',
        'activate:lib',
        'activate:app',
      ]);
    });

    it('does not activate a plugin whose dependency is missing, and says which', async () => {
      await builtin({ id: 'app', deps: { ghost: '^1.0.0' } });
      const host = await startHost();
      expect(report(host, 'app').active).toBe(false);
      expect(errorsOf(report(host, 'app'))).toEqual([
        'requires plugin "ghost" ^1.0.0, which is not installed or not loadable',
      ]);
      expect(log()).toEqual([]);
    });

    it('passes the plugin its own id and records its declared tools', async () => {
      await builtin({ id: 'alpha', tools: [{ name: 'alpha_tool', actions: ['read', 'write'] }] });
      const host = await startHost();
      expect(host.tools().map((t) => [t.name, t.actionNames])).toEqual([['alpha_tool', ['read', 'write']]]);
    });

    it('warns about a declared tool the plugin did not register', async () => {
      await builtin({ id: 'lazy', tools: [{ name: 'lazy_tool' }], registers: [] });
      const host = await startHost();
      expect(report(host, 'lazy')).toMatchObject({
        active: true,
        diagnostics: [{ severity: 'warning', message: 'declares tool "lazy_tool" but did not register it' }],
      });
    });

    it('keeps that warning after an unrelated plugin is disabled', async () => {
      await builtin({ id: 'lazy', tools: [{ name: 'lazy_tool' }], registers: [] });
      await builtin({ id: 'other' });
      const host = await startHost();
      await host.plugins.setEnabled('other', false);
      expect(report(host, 'lazy').active).toBe(true);
      expect(report(host, 'lazy').diagnostics).toEqual([
        { severity: 'warning', message: 'declares tool "lazy_tool" but did not register it' },
      ]);
    });
  });

  describe('an activate() that throws', () => {
    it('is reported as "activation failed" and leaves nothing registered', async () => {
      await builtin({
        id: 'flaky',
        tools: [{ name: 'flaky_tool' }],
        taps: true,
        activateThrows: 'boom',
      });
      await builtin({ id: 'steady', tools: [{ name: 'steady_tool' }] });
      const host = await startHost();

      expect(log()).toContain('activate:flaky');
      const flaky = report(host, 'flaky');
      expect(flaky.active).toBe(false);
      expect(errorsOf(flaky)).toEqual(['activation failed: boom']);
      expect(toolNames(host)).toEqual(['steady_tool']);
      expect(tapNames(host)).not.toContain('flaky');
    });

    it('keeps its dependents from activating', async () => {
      await builtin({ id: 'base', activateThrows: 'no database' });
      await builtin({ id: 'app', deps: { base: '*' } });
      const host = await startHost();
      expect(log()).not.toContain('activate:app');
      expect(report(host, 'app').active).toBe(false);
      expect(errorsOf(report(host, 'app'))).toEqual(['not activated: dependency base failed to activate']);
    });
  });

  describe('what the person (stderr) and the MCP clients are told', () => {
    it('every problem found while the host starts, once, kept for the clients that connect later', async () => {
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      await builtin({ id: 'flaky', activateThrows: 'boom' });
      await builtin({ id: 'app', deps: { absent: '*' } });
      await builtin({ id: 'steady', tools: [{ name: 'steady_tool' }] });
      await user({ id: 'steady' }, 'steady-copy');
      await mkdir(path.join(userRoot, 'broken'));
      await writeFile(path.join(userRoot, 'broken', 'manifest.json'), '{ not json');
      const host = await startHost();
      const told = host.container
        .get(LogHub)
        .startupRecords()
        .map((r) => `${r.level} ${r.logger} ${r.message}`);
      expect(told).toEqual(
        expect.arrayContaining([
          'error plugins plugin flaky: activation failed: boom',
          expect.stringMatching(/^error plugins plugin app: requires plugin "absent"/),
          expect.stringMatching(
            /^error plugins plugin steady: another plugin with id "steady" was found first/,
          ),
          expect.stringMatching(/^error plugins plugin .*broken: manifest\.json is not valid JSON/),
        ]),
      );
      expect(told).toHaveLength(4);
      const lines = stderr.mock.calls.map(([text]) => String(text));
      expect(lines).toContain('vmark: plugin flaky: activation failed: boom\n');
      // A later pass finds the same problems again: they are not told again.
      const later: LogRecord[] = [];
      host.container.get(LogHub).subscribe((record) => later.push(record));
      await host.plugins.setEnabled('flaky', false);
      expect(later).toEqual([]);
    });

    it('a plugin that fails once the host runs, to the clients connected then', async () => {
      await builtin({ id: 'flaky', activateThrows: 'boom' });
      const host = await startHost();
      vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      await host.plugins.setEnabled('flaky', false);
      const later: LogRecord[] = [];
      host.container.get(LogHub).subscribe((record) => later.push(record));
      await host.plugins.setEnabled('flaky', true);
      expect(later).toEqual([
        { level: 'error', logger: 'plugins', message: 'plugin flaky: activation failed: boom' },
      ]);
      expect(host.container.get(LogHub).startupRecords()).toHaveLength(1);
    });
  });

  describe('tools must be registered as the manifest declares them', () => {
    const declared: ToolSketch = {
      name: 't',
      title: 'Declared',
      annotations: READ_ONLY,
      actions: ['get', 'list'],
    };

    it.each<[string, ToolSketch, string]>([
      [
        'a tool the manifest does not declare',
        { ...declared, name: 'sneaky' },
        'tool "sneaky" is not declared in the manifest\'s contributes.tools',
      ],
      ['a different title', { ...declared, title: 'Other' }, 'tool "t": title differs from the manifest'],
      [
        'a different annotation',
        { ...declared, annotations: { ...READ_ONLY, openWorldHint: true } },
        'tool "t": openWorldHint differs from the manifest',
      ],
      [
        'different actions',
        { ...declared, actions: ['get', 'delete'] },
        'tool "t": actions [get, delete] differ from the manifest\'s [get, list]',
      ],
    ])('fails activation for %s, saying what differs', async (_label, registered, message) => {
      await builtin({ id: 'strict', tools: [declared], registers: [registered] });
      const host = await startHost();
      const strict = report(host, 'strict');
      expect(strict.active).toBe(false);
      expect(errorsOf(strict)).toEqual([`activation failed: plugin "strict" ${message}`]);
      expect(host.tools()).toEqual([]);
    });

    it('leaves a tool registered before the mismatched one unregistered too', async () => {
      await builtin({
        id: 'strict',
        tools: [{ name: 'good' }],
        registers: [{ name: 'good' }, { name: 'undeclared' }],
      });
      const host = await startHost();
      expect(report(host, 'strict').active).toBe(false);
      expect(host.tools()).toEqual([]);
    });
  });

  describe('enabling and disabling', () => {
    async function startLayered(): Promise<Host> {
      await builtin({ id: 'util', tools: [{ name: 'util_tool' }], taps: true });
      await builtin({ id: 'lib', deps: { util: '^1.0.0' }, tools: [{ name: 'lib_tool' }], taps: true });
      await builtin({ id: 'app', deps: { lib: '^1.0.0' }, tools: [{ name: 'app_tool' }], taps: true });
      await builtin({ id: 'solo', tools: [{ name: 'solo_tool' }] });
      const host = await startHost();
      expect(toolNames(host)).toEqual(['app_tool', 'lib_tool', 'solo_tool', 'util_tool']);
      recorded[RECORD] = [];
      return host;
    }

    it('disabling a plugin deactivates it and its dependents, dependents first', async () => {
      const host = await startLayered();
      await host.plugins.setEnabled('util', false);
      expect(log()).toEqual(['deactivate:app', 'deactivate:lib', 'deactivate:util']);
      expect(report(host, 'util')).toMatchObject({ enabled: false, active: false });
      expect(report(host, 'lib')).toMatchObject({ enabled: true, active: false });
      expect(errorsOf(report(host, 'lib'))).toEqual(['requires plugin "util" ^1.0.0, which is disabled']);
      expect(errorsOf(report(host, 'app'))).toEqual(['requires plugin "lib" ^1.0.0, which cannot run']);
      expect(report(host, 'solo').active).toBe(true);
    });

    it('disabling disposes what the plugins registered: their tools and their hook taps', async () => {
      const host = await startLayered();
      expect(tapNames(host).sort()).toEqual(['app', 'lib', 'util']);
      await host.plugins.setEnabled('lib', false);
      expect(toolNames(host)).toEqual(['solo_tool', 'util_tool']);
      expect(tapNames(host)).toEqual(['util']);

      const hooks = host.container.get<HostHooks>(HostHooksToken);
      hooks.toolCalled.call({
        tool: 'x',
        action: 'get',
        caller: { connectionId: 'c', clientName: 'test', clientVersion: '1', principal: null },
        outcome: 'ok',
        durationMs: 1,
      });
      expect(log().filter((e) => e.startsWith('toolCalled@'))).toEqual(['toolCalled@util:x']);
    });

    it('persists the disabled state to $VMARK_HOME/plugins.json', async () => {
      const host = await startLayered();
      await host.plugins.setEnabled('lib', false);
      await host.plugins.setEnabled('solo', false);
      expect(await readState()).toEqual({ disabled: ['lib', 'solo'] });
      await host.plugins.setEnabled('solo', true);
      expect(await readState()).toEqual({ disabled: ['lib'] });
    });

    it('a new host over the same $VMARK_HOME starts with the plugin disabled', async () => {
      const first = await startLayered();
      await first.plugins.setEnabled('lib', false);
      await first.dispose();
      recorded[RECORD] = [];

      const second = await startHost();
      expect(
        log()
          .filter((e) => e.startsWith('activate:'))
          .sort(),
      ).toEqual(['activate:solo', 'activate:util']);
      expect(report(second, 'lib')).toMatchObject({ enabled: false, active: false });
    });

    it('re-enabling re-activates the plugin and its dependents, dependencies first, with their tools and taps', async () => {
      const host = await startLayered();
      await host.plugins.setEnabled('util', false);
      recorded[RECORD] = [];
      await host.plugins.setEnabled('util', true);
      expect(log()).toEqual(['activate:util', 'activate:lib', 'activate:app']);
      expect(toolNames(host)).toEqual(['app_tool', 'lib_tool', 'solo_tool', 'util_tool']);
      expect(tapNames(host).sort()).toEqual(['app', 'lib', 'util']);
      for (const id of ['util', 'lib', 'app']) {
        expect(report(host, id)).toMatchObject({ enabled: true, active: true, diagnostics: [] });
      }
      expect(await readState()).toEqual({ disabled: [] });
    });

    it('disabling an already disabled plugin changes nothing', async () => {
      const host = await startLayered();
      await host.plugins.setEnabled('solo', false);
      await host.plugins.setEnabled('solo', false);
      expect(await readState()).toEqual({ disabled: ['solo'] });
      expect(log()).toEqual(['deactivate:solo']);
    });

    it('tells listeners after every change', async () => {
      const host = await startLayered();
      let calls = 0;
      const subscription = host.plugins.onDidChange(() => calls++);
      await host.plugins.setEnabled('solo', false);
      await host.plugins.setEnabled('solo', true);
      subscription.dispose();
      await host.plugins.setEnabled('solo', false);
      expect(calls).toBe(2);
    });

    it('dispose() deactivates every active plugin, dependents first', async () => {
      const host = await startLayered();
      await host.dispose();
      const deactivations = log().filter((e) => e.startsWith('deactivate:'));
      expect(deactivations).toHaveLength(4);
      expect(deactivations.indexOf('deactivate:app')).toBeLessThan(deactivations.indexOf('deactivate:lib'));
      expect(deactivations.indexOf('deactivate:lib')).toBeLessThan(deactivations.indexOf('deactivate:util'));
      expect(host.tools()).toEqual([]);
    });

    it('a deactivate() that throws still loses its registrations and does not wedge later changes', async () => {
      await builtin({
        id: 'fragile',
        tools: [{ name: 'fragile_tool' }],
        deactivateThrows: 'teardown failed',
      });
      await builtin({ id: 'sturdy', tools: [{ name: 'sturdy_tool' }] });
      const host = await startHost();

      await host.plugins.setEnabled('fragile', false).catch(() => undefined);
      expect(toolNames(host)).toEqual(['sturdy_tool']);
      expect(report(host, 'fragile').active).toBe(false);

      await expect(host.plugins.setEnabled('sturdy', false)).resolves.toBeUndefined();
      expect(toolNames(host)).toEqual([]);
      expect(report(host, 'sturdy').active).toBe(false);
    });
  });

  describe('following plugins.json', () => {
    it('with watchPluginState, an outside edit of plugins.json deactivates and re-activates a plugin', async () => {
      await builtin({ id: 'alpha', tools: [{ name: 'alpha_tool' }] });
      await builtin({ id: 'beta', tools: [{ name: 'beta_tool' }] });
      const host = await startHost({ watchPluginState: true });
      expect(report(host, 'alpha').active).toBe(true);

      await writeFile(path.join(home, 'plugins.json'), JSON.stringify({ disabled: ['alpha'] }));
      await eventually(() => !report(host, 'alpha').active);
      expect(report(host, 'alpha')).toMatchObject({ enabled: false, active: false });
      expect(toolNames(host)).toEqual(['beta_tool']);
      expect(log()).toContain('deactivate:alpha');

      await writeFile(path.join(home, 'plugins.json'), JSON.stringify({ disabled: [] }));
      await eventually(() => report(host, 'alpha').active);
      expect(report(host, 'alpha')).toMatchObject({ enabled: true, active: true });
      expect(toolNames(host)).toEqual(['alpha_tool', 'beta_tool']);
    });

    it('with watchPluginState, follows the user plugins folder: added, fixed, changed and removed plugins', async () => {
      await rm(userRoot, { recursive: true });
      await builtin({ id: 'alpha', tools: [{ name: 'alpha_tool' }] });
      const host = await startHost({ watchPluginState: true });
      const reportOf = (id: string) => host.plugins.reports().find((r) => r.id === id);

      // The folder itself is made later, then a plugin in it.
      await user({ id: 'beta', tools: [{ name: 'beta_tool' }] });
      await eventually(() => reportOf('beta')?.active === true, SLOW);
      expect(report(host, 'beta')).toMatchObject({ source: 'user', enabled: true, active: true });
      expect(toolNames(host)).toEqual(['alpha_tool', 'beta_tool']);

      // One whose code is missing is reported, and tried again once its folder changes.
      const gammaDir = path.join(userRoot, 'gamma');
      await mkdir(gammaDir);
      await writeFile(path.join(gammaDir, 'manifest.json'), JSON.stringify(manifestOf({ id: 'gamma' })));
      await eventually(() => (reportOf('gamma')?.diagnostics.length ?? 0) > 0, SLOW);
      expect(errorsOf(report(host, 'gamma'))[0]).toMatch(/^activation failed: /);
      await writeFile(path.join(gammaDir, 'main.js'), mainOf({ id: 'gamma' }));
      await eventually(() => reportOf('gamma')?.active === true, SLOW);
      expect(report(host, 'gamma').diagnostics).toEqual([]);

      // One whose code threw while loading is tried afresh once it is fixed.
      const deltaDir = path.join(userRoot, 'delta');
      await mkdir(deltaDir);
      await writeFile(path.join(deltaDir, 'main.js'), 'throw new Error("not yet");');
      await writeFile(path.join(deltaDir, 'manifest.json'), JSON.stringify(manifestOf({ id: 'delta' })));
      await eventually(() => (reportOf('delta')?.diagnostics.length ?? 0) > 0, SLOW);
      expect(errorsOf(report(host, 'delta'))).toEqual(['activation failed: not yet']);
      await writeFile(path.join(deltaDir, 'main.js'), mainOf({ id: 'delta' }));
      await eventually(() => reportOf('delta')?.active === true, SLOW);
      expect(report(host, 'delta').diagnostics).toEqual([]);

      // A running plugin keeps running as it was; a changed manifest asks for a restart.
      await writeFile(
        path.join(userRoot, 'beta', 'manifest.json'),
        JSON.stringify(manifestOf({ id: 'beta', version: '2.0.0', tools: [{ name: 'beta_tool' }] })),
      );
      await eventually(() => report(host, 'beta').diagnostics.length > 0, SLOW);
      expect(report(host, 'beta')).toMatchObject({
        version: '1.0.0',
        active: true,
        diagnostics: [
          {
            severity: 'warning',
            message: 'manifest.json changed on disk: restart vmark to load the new version',
          },
        ],
      });

      // Removed: deactivated, its tools gone; the others stay.
      await rm(path.join(userRoot, 'beta'), { recursive: true });
      // The report goes with the new discovery; the deactivation runs just after it.
      await eventually(() => reportOf('beta') === undefined && log().includes('deactivate:beta'), SLOW);
      expect(log()).toContain('deactivate:beta');
      expect(toolNames(host)).toEqual(['alpha_tool']);
      expect(report(host, 'alpha').active).toBe(true);
      expect(log().filter((entry) => entry === 'activate:alpha')).toHaveLength(1);
    });

    it('without watchPluginState, an outside edit changes nothing until the next reconcile', async () => {
      await builtin({ id: 'alpha' });
      const host = await startHost();
      await writeFile(path.join(home, 'plugins.json'), JSON.stringify({ disabled: ['alpha'] }));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(report(host, 'alpha').active).toBe(true);
      await host.plugins.reconcile();
      expect(report(host, 'alpha').active).toBe(false);
    });

    it('treats a plugins.json that does not parse as "nothing disabled"', async () => {
      await builtin({ id: 'alpha' });
      await writeFile(path.join(home, 'plugins.json'), '{ nope');
      const host = await startHost();
      expect(report(host, 'alpha')).toMatchObject({ enabled: true, active: true });
    });

    it('a state change seen just before dispose() does not re-activate plugins afterwards', async () => {
      await builtin({ id: 'alpha' });
      const host = await startHost({ watchPluginState: true });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

      await writeFile(path.join(home, 'plugins.json'), JSON.stringify({ disabled: [] }));
      // Wait (without timers) until the watcher has scheduled its debounced reconcile.
      const until = Date.now() + 2_000;
      while (vi.getTimerCount() === 0 && Date.now() < until) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(vi.getTimerCount()).toBeGreaterThan(0);

      await host.dispose();
      expect(log()).toEqual(['load:alpha', 'activate:alpha', 'deactivate:alpha']);
      vi.runOnlyPendingTimers();
      vi.useRealTimers();
      // Let a reconcile the timer may have queued run to the end.
      await new Promise((resolve) => setTimeout(resolve, 200));

      expect(log()).toEqual(['load:alpha', 'activate:alpha', 'deactivate:alpha']);
      expect(host.tools()).toEqual([]);
    });
  });
});
