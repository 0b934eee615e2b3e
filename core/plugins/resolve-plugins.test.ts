import { describe, expect, it } from 'vitest';
import { type Diagnostic, error, warning } from './diagnostics.js';
import type { PluginManifest } from './manifest.js';
import { type CheckedPlugin, type Resolution, resolvePlugins } from './resolve-plugins.js';

interface PluginSketch {
  readonly version?: string;
  readonly deps?: Record<string, string>;
  readonly tools?: readonly string[];
  readonly kinds?: readonly string[];
  readonly commands?: readonly string[];
  /** Defaults to `dir/<id>`; give one to tell two candidates with the same id apart. */
  readonly key?: string;
  readonly diagnostics?: readonly Diagnostic[];
}

function plugin(id: string, sketch: PluginSketch = {}): CheckedPlugin {
  const manifest: PluginManifest = {
    id,
    name: id,
    version: sketch.version ?? '1.0.0',
    engines: { host: '^1.0.0' },
    main: 'index.js',
    dependencies: sketch.deps,
    contributes: {
      tools: sketch.tools?.map((name) => ({
        name,
        title: name,
        annotations: {
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
        actions: ['get'],
      })),
      kinds: sketch.kinds?.map((kind) => ({ id: kind })),
      commands: sketch.commands?.map((name) => ({ name, summary: name })),
    },
  };
  return { key: sketch.key ?? `dir/${id}`, manifest, diagnostics: sketch.diagnostics ?? [] };
}

const allEnabled = () => true;
const disabledOnly =
  (...ids: string[]) =>
  (id: string) =>
    !ids.includes(id);

/** The messages reported for one candidate key. */
function messages(resolution: Resolution, key: string): string[] {
  return (resolution.problems.get(key) ?? []).map((d) => d.message);
}

describe('resolvePlugins', () => {
  describe('activation order', () => {
    it('activates every valid, enabled plugin with nothing to report', () => {
      const resolution = resolvePlugins([plugin('b'), plugin('a')], allEnabled);
      expect(resolution.order).toEqual(['a', 'b']);
      expect(resolution.problems.size).toBe(0);
    });

    it('puts dependencies first in a diamond, and breaks ties alphabetically', () => {
      // top → left, right → base; "other" stands alone.
      const resolution = resolvePlugins(
        [
          plugin('top', { deps: { right: '^1.0.0', left: '^1.0.0' } }),
          plugin('right', { deps: { base: '^1.0.0' } }),
          plugin('other'),
          plugin('left', { deps: { base: '^1.0.0' } }),
          plugin('base'),
        ],
        allEnabled,
      );
      expect(resolution.order).toEqual(['base', 'left', 'other', 'right', 'top']);
      expect(resolution.problems.size).toBe(0);
    });

    it('does not depend on the order the candidates were found in', () => {
      const candidates = [
        plugin('z'),
        plugin('a', { deps: { z: '*' } }),
        plugin('m', { deps: { a: '*' } }),
        plugin('b'),
      ];
      const forward = resolvePlugins(candidates, allEnabled).order;
      const backward = resolvePlugins([...candidates].reverse(), allEnabled).order;
      expect(forward).toEqual(['b', 'z', 'a', 'm']);
      expect(backward).toEqual(forward);
    });

    it('places a dependency before its dependent even when the dependent sorts first', () => {
      expect(resolvePlugins([plugin('a', { deps: { z: '^1.0.0' } }), plugin('z')], allEnabled).order).toEqual(
        ['z', 'a'],
      );
    });
  });

  describe('plugins that are not valid', () => {
    it('skips a candidate without a manifest or with an error diagnostic, and keeps one with only warnings', () => {
      const resolution = resolvePlugins(
        [
          { key: 'dir/broken', diagnostics: [error('manifest.json is not valid JSON')] },
          plugin('incompatible', { diagnostics: [error('not compatible with the vmark host API 1.0.0')] }),
          plugin('warned', { diagnostics: [warning('unknown manifest field "x" is ignored')] }),
        ],
        allEnabled,
      );
      expect(resolution.order).toEqual(['warned']);
    });

    it('does not repeat a candidate\u2019s own diagnostics in its problems', () => {
      const resolution = resolvePlugins(
        [plugin('incompatible', { diagnostics: [error('not compatible')] })],
        allEnabled,
      );
      expect(resolution.problems.size).toBe(0);
    });
  });

  describe('disabled plugins', () => {
    it('does not run a disabled plugin and reports nothing about it', () => {
      const resolution = resolvePlugins([plugin('a'), plugin('b')], disabledOnly('a'));
      expect(resolution.order).toEqual(['b']);
      expect(resolution.problems.size).toBe(0);
    });

    it('does not run the dependents of a disabled plugin, saying it is disabled', () => {
      const resolution = resolvePlugins(
        [plugin('base'), plugin('app', { deps: { base: '^1.0.0' } }), plugin('free')],
        disabledOnly('base'),
      );
      expect(resolution.order).toEqual(['free']);
      expect(messages(resolution, 'dir/app')).toEqual(['requires plugin "base" ^1.0.0, which is disabled']);
    });

    it('strands plugins transitively: a dependent of a dependent of a disabled plugin does not run either', () => {
      const resolution = resolvePlugins(
        [
          plugin('top', { deps: { middle: '^1.0.0' } }),
          plugin('middle', { deps: { base: '^1.0.0' } }),
          plugin('base'),
        ],
        disabledOnly('base'),
      );
      expect(resolution.order).toEqual([]);
      expect(messages(resolution, 'dir/middle')).toEqual([
        'requires plugin "base" ^1.0.0, which is disabled',
      ]);
      expect(messages(resolution, 'dir/top')).toEqual(['requires plugin "middle" ^1.0.0, which cannot run']);
    });
  });

  describe('dependencies that cannot be met', () => {
    it('does not run a plugin whose dependency is not installed', () => {
      const resolution = resolvePlugins([plugin('app', { deps: { ghost: '^1.0.0' } })], allEnabled);
      expect(resolution.order).toEqual([]);
      expect(messages(resolution, 'dir/app')).toEqual([
        'requires plugin "ghost" ^1.0.0, which is not installed or not loadable',
      ]);
    });

    it('treats a dependency that failed validation as not loadable', () => {
      const resolution = resolvePlugins(
        [plugin('base', { diagnostics: [error('bad')] }), plugin('app', { deps: { base: '*' } })],
        allEnabled,
      );
      expect(resolution.order).toEqual([]);
      expect(messages(resolution, 'dir/app')).toEqual([
        'requires plugin "base" *, which is not installed or not loadable',
      ]);
    });

    it('does not run a plugin whose dependency is installed at a version out of range, naming the installed version', () => {
      const resolution = resolvePlugins(
        [plugin('base', { version: '1.4.0' }), plugin('app', { deps: { base: '^2.0.0' } })],
        allEnabled,
      );
      expect(resolution.order).toEqual(['base']);
      expect(messages(resolution, 'dir/app')).toEqual([
        'requires plugin "base" ^2.0.0, but version 1.4.0 is installed',
      ]);
    });

    it('accepts a dependency at a version in range', () => {
      const resolution = resolvePlugins(
        [plugin('base', { version: '2.5.1' }), plugin('app', { deps: { base: '>=2.1 <3' } })],
        allEnabled,
      );
      expect(resolution.order).toEqual(['base', 'app']);
    });

    it('strands dependents of a plugin that cannot run because of its own missing dependency', () => {
      const resolution = resolvePlugins(
        [
          plugin('c', { deps: { b: '*' } }),
          plugin('b', { deps: { a: '^3.0.0' } }),
          plugin('a', { version: '1.0.0' }),
        ],
        allEnabled,
      );
      expect(resolution.order).toEqual(['a']);
      expect(messages(resolution, 'dir/b')).toEqual([
        'requires plugin "a" ^3.0.0, but version 1.0.0 is installed',
      ]);
      expect(messages(resolution, 'dir/c')).toEqual(['requires plugin "b" *, which cannot run']);
    });
  });

  describe('dependency cycles', () => {
    it('runs none of the members of a cycle and reports each of them, naming the members', () => {
      const resolution = resolvePlugins(
        [
          plugin('a', { deps: { b: '*' } }),
          plugin('b', { deps: { c: '*' } }),
          plugin('c', { deps: { a: '*' } }),
          plugin('free'),
        ],
        allEnabled,
      );
      expect(resolution.order).toEqual(['free']);
      for (const id of ['a', 'b', 'c']) {
        expect(messages(resolution, `dir/${id}`)).toEqual(['is part of a dependency cycle among: a, b, c']);
      }
      expect(messages(resolution, 'dir/free')).toEqual([]);
    });

    it('does not report a plugin that merely depends on a cycle as a member of it', () => {
      const resolution = resolvePlugins(
        [
          plugin('a', { deps: { b: '*' } }),
          plugin('b', { deps: { a: '*' } }),
          plugin('user', { deps: { a: '*' } }),
        ],
        allEnabled,
      );
      expect(resolution.order).toEqual([]);
      expect(messages(resolution, 'dir/a')).toEqual(['is part of a dependency cycle among: a, b']);
      expect(messages(resolution, 'dir/b')).toEqual(['is part of a dependency cycle among: a, b']);
      expect(messages(resolution, 'dir/user')).toHaveLength(1);
      expect(messages(resolution, 'dir/user')[0]).not.toMatch(/is part of a dependency cycle/);
    });
  });

  describe('plugins that claim what another already claimed', () => {
    it('keeps the first of two candidates with the same id and reports the second', () => {
      const resolution = resolvePlugins(
        [
          plugin('dup', { key: 'builtin/dup', version: '1.0.0' }),
          plugin('dup', { key: 'user/dup', version: '9.0.0' }),
          plugin('app', { deps: { dup: '^1.0.0' } }),
        ],
        allEnabled,
      );
      expect(resolution.order).toEqual(['dup', 'app']);
      expect(messages(resolution, 'builtin/dup')).toEqual([]);
      expect(messages(resolution, 'user/dup')).toEqual([
        'another plugin with id "dup" was found first (builtin/dup)',
      ]);
    });

    it('refuses the second plugin to contribute a tool name, naming the first', () => {
      const resolution = resolvePlugins(
        [plugin('first', { tools: ['shared', 'own'] }), plugin('second', { tools: ['mine', 'shared'] })],
        allEnabled,
      );
      expect(resolution.order).toEqual(['first']);
      expect(messages(resolution, 'dir/second')).toEqual([
        'tool "shared" is already contributed by plugin "first"',
      ]);
    });

    it('refuses the second plugin to contribute a document kind, naming the first', () => {
      const resolution = resolvePlugins(
        [plugin('first', { kinds: ['markdown'] }), plugin('second', { kinds: ['markdown'] })],
        allEnabled,
      );
      expect(resolution.order).toEqual(['first']);
      expect(messages(resolution, 'dir/second')).toEqual([
        'document kind "markdown" is already contributed by plugin "first"',
      ]);
    });

    it('refuses the second plugin to contribute a command, naming the first', () => {
      const resolution = resolvePlugins(
        [plugin('first', { commands: ['ledger'] }), plugin('second', { commands: ['ledger'] })],
        allEnabled,
      );
      expect(resolution.order).toEqual(['first']);
      expect(messages(resolution, 'dir/second')).toEqual([
        'command "ledger" is already contributed by plugin "first"',
      ]);
    });

    it('strands the dependents of a refused plugin', () => {
      const resolution = resolvePlugins(
        [
          plugin('first', { tools: ['shared'] }),
          plugin('second', { tools: ['shared'] }),
          plugin('app', { deps: { second: '*' } }),
        ],
        allEnabled,
      );
      expect(resolution.order).toEqual(['first']);
      expect(messages(resolution, 'dir/app')).toEqual([
        'requires plugin "second" *, which is not installed or not loadable',
      ]);
    });

    it('lets an invalid candidate claim nothing, so a later valid one with the same tool runs', () => {
      const resolution = resolvePlugins(
        [
          plugin('broken', { tools: ['shared'], diagnostics: [error('bad')] }),
          plugin('good', { tools: ['shared'] }),
        ],
        allEnabled,
      );
      expect(resolution.order).toEqual(['good']);
      expect(resolution.problems.size).toBe(0);
    });
  });
});
