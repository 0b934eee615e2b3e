/**
 * Extension points through a real host: an owner plugin opens a point with a validator, other
 * plugins contribute to it, and what the owner refuses never runs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  type ContributionDiagnostic,
  definePlugin,
  type ExtensionPoint,
  HOST_API_VERSION,
  type PeerDeclaration,
} from '@vmark/sdk';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createHost, type Host } from '../../core/composition/host.js';
import type { PluginCandidate, PluginSource } from '../../core/plugins/discovery.js';

interface Greeting {
  readonly word: string;
}

let home: string;
let host: Host | undefined;
let point: ExtensionPoint<Greeting> | undefined;
let ran: string[];

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-points-'));
  ran = [];
  point = undefined;
});

afterEach(async () => {
  await host?.dispose();
  host = undefined;
  await rm(home, { recursive: true, force: true });
});

/** Names must be non-empty, and no two plugins may claim one. */
function validate(declaration: unknown, { peers }: { peers: readonly PeerDeclaration[] }) {
  const found: ContributionDiagnostic[] = [];
  const names = Array.isArray(declaration) ? (declaration as unknown[]) : [];
  if (names.length === 0) found.push({ severity: 'error', message: 'must list at least one name' });
  for (const name of names) {
    const holder = peers.find((p) => (p.declaration as unknown[]).includes(name));
    if (holder)
      found.push({ severity: 'error', message: `"${String(name)}" is claimed by ${holder.pluginId}` });
  }
  return found;
}

function owner(): PluginCandidate {
  return candidate(
    'builtin',
    { id: 'owner', contributes: { extensionPoints: [{ id: 'greetings' }] } },
    (context) => {
      point = context.declareExtensionPoint<Greeting>('greetings', {
        validate,
        accept: (value) => {
          if (typeof (value as Greeting).word !== 'string') throw new Error('a greeting needs a word');
          return value as Greeting;
        },
      });
    },
  );
}

function contributor(
  id: string,
  names: unknown,
  options: { source?: PluginSource; word?: unknown; deps?: boolean } = {},
): PluginCandidate {
  return candidate(
    options.source ?? 'builtin',
    {
      id,
      ...(options.deps === false ? {} : { dependencies: { owner: '^1.0.0' } }),
      contributes: { greetings: names },
    },
    (context) => {
      ran.push(id);
      context.contribute('greetings', { word: options.word ?? `hello from ${id}` });
    },
  );
}

function candidate(
  source: PluginSource,
  manifest: Record<string, unknown>,
  activate: Parameters<typeof definePlugin>[0]['activate'],
): PluginCandidate {
  const raw = {
    name: String(manifest.id),
    version: '1.0.0',
    engines: { host: `^${HOST_API_VERSION}` },
    main: 'index.js',
    ...manifest,
  };
  return { source, dir: null, raw, load: () => Promise.resolve(definePlugin({ activate })) };
}

async function start(...candidates: PluginCandidate[]): Promise<Host> {
  host = await createHost({ home, userPlugins: false, extraPlugins: candidates });
  return host;
}

const report = (id: string) => host!.plugins.reports().find((r) => r.id === id)!;

it('gives the owner the contributions, and takes one back when its plugin is disabled', async () => {
  await start(owner(), contributor('alpha', ['a']), contributor('beta', ['b']));
  expect(point!.contributions().map((c) => [c.pluginId, c.value.word, c.declaration])).toEqual([
    ['alpha', 'hello from alpha', ['a']],
    ['beta', 'hello from beta', ['b']],
  ]);
  let changes = 0;
  point!.onDidChange(() => changes++);
  await host!.plugins.setEnabled('alpha', false);
  expect(point!.contributions().map((c) => c.pluginId)).toEqual(['beta']);
  expect(changes).toBe(1);
  await host!.plugins.setEnabled('alpha', true);
  expect(point!.contributions().map((c) => c.pluginId)).toEqual(['beta', 'alpha']);
});

it('refuses a contribution its owner finds invalid before any of its code runs, and says why', async () => {
  await start(owner(), contributor('empty', []));
  expect(ran).toEqual([]);
  expect(report('empty')).toMatchObject({ active: false });
  expect(report('empty').diagnostics.map((d) => d.message)).toEqual([
    'greetings: must list at least one name',
    'not activated: its contributions were refused',
  ]);
  expect(point!.contributions()).toEqual([]);
});

it('lets a built-in keep what an npm package also claims, whatever their ids', async () => {
  // "aardvark" activates before "zebra" by id; the built-in takes precedence all the same.
  await start(
    owner(),
    contributor('aardvark', ['shared'], { source: 'npm' }),
    contributor('zebra', ['shared']),
  );
  expect(point!.contributions().map((c) => c.pluginId)).toEqual(['zebra']);
  expect(report('aardvark').diagnostics.map((d) => d.message)).toContain(
    'greetings: "shared" is claimed by zebra',
  );
  expect(ran).toEqual(['zebra']);
});

it('refuses a contribution to a point none of its dependencies declares', async () => {
  await start(owner(), contributor('stray', ['x'], { deps: false }));
  expect(ran).toEqual([]);
  expect(report('stray').diagnostics.map((d) => d.message)).toEqual([
    'contributes to extension point "greetings", which none of its dependencies declares',
  ]);
});

it('fails the activation of a plugin whose run-time contribution the owner refuses, undoing it whole', async () => {
  await start(owner(), contributor('wordless', ['w'], { word: 42 }));
  expect(report('wordless')).toMatchObject({ active: false });
  expect(report('wordless').diagnostics.map((d) => d.message)).toEqual([
    'activation failed: a greeting needs a word',
  ]);
  expect(point!.contributions()).toEqual([]);
});

it('refuses to open a point the manifest does not declare, and a contribution it does not declare', async () => {
  const opener = candidate('builtin', { id: 'opener' }, (context) => {
    context.declareExtensionPoint('undeclared', { validate: () => [], accept: (v) => v });
  });
  const giver = candidate('builtin', { id: 'giver', dependencies: { owner: '^1.0.0' } }, (context) => {
    context.contribute('greetings', { word: 'hi' });
  });
  await start(owner(), opener, giver);
  expect(report('opener').diagnostics.map((d) => d.message)).toEqual([
    'activation failed: plugin "opener" opens extension point "undeclared" that its manifest does not declare',
  ]);
  expect(report('giver').diagnostics.map((d) => d.message)).toEqual([
    'activation failed: plugin "giver" contributes to "greetings", which its manifest does not declare',
  ]);
});
