import { ApprovalsToken, SettingsToken, type ToolCall } from '@vmark/sdk';
import { type PluginUnderTest, readManifest, startTestHost, type TestHost } from '@vmark/sdk/testing';
import { BrowserSettings } from '../src/browser-settings.js';
import { BrowserEngine, type Posture } from '../src/engine/browser-engine.js';
import { probeGate } from '../src/gates/gate-probe.js';
import { systemResolver } from '../src/guard/resolver.js';
import { Navigator } from '../src/navigation/navigator.js';
import type { BrowserTab } from '../src/tabs/browser-tab.js';
import { TabRegistry } from '../src/tabs/tab-registry.js';
import browserPlugin from '../src/index.js';

/** The browser plugin as it ships, for a test host. It reads its environment when it starts. */
export const browserUnderTest: PluginUnderTest = {
  manifest: readManifest(new URL('../manifest.json', import.meta.url)),
  plugin: browserPlugin,
};

/** A test host with the browser plugin alone. */
export const startBrowserHost = (): Promise<TestHost> => startTestHost({ plugins: [browserUnderTest] });

/**
 * The browser plugin's own parts, wired as its index.ts wires them, around a real test host:
 * for the tests that must reach a tab's page — to crash its renderer, or to stand in for "the
 * internet" with the page's own routes — which the MCP surface rightly never offers.
 */
export interface Rig {
  readonly kit: TestHost;
  readonly engine: BrowserEngine;
  readonly registry: TabRegistry;
  readonly navigator: Navigator;
  /** A call as a connection would make it (the sandbox posture asks no one anything). */
  readonly call: ToolCall;
  open(posture?: Posture): Promise<BrowserTab>;
  dispose(): Promise<void>;
}

export interface RigOptions {
  readonly allowPrivateNetwork: boolean;
  /** VMARK_BROWSER_HOST_RULES. */
  readonly hostRules?: string;
  /** The rest of the environment the engine reads (VMARK_CHROMIUM, VMARK_BROWSER_ENDPOINT). */
  readonly env?: NodeJS.ProcessEnv;
  /** How long the browser runs on with no tab open (the plugin's is two minutes). */
  readonly idleMs?: number;
}

export async function startRig(options: RigOptions): Promise<Rig> {
  const kit = await startTestHost({ plugins: [] });
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    VMARK_BROWSER_ALLOW_PRIVATE: options.allowPrivateNetwork ? '1' : '0',
  };
  const settings = new BrowserSettings(kit.host.container.get(SettingsToken), env);
  const resolver = systemResolver(options.hostRules ?? '');
  const engine = new BrowserEngine({
    home: kit.home,
    resolver,
    policy: () => ({ allowPrivateNetwork: settings.allowPrivateNetwork() }),
    endpoint: env.VMARK_BROWSER_ENDPOINT,
    headed: false,
    idleMs: options.idleMs ?? 60_000,
    env,
  });
  const registry = new TabRegistry(kit.host.workbench, engine, kit.host.container.get(ApprovalsToken));
  const navigator = new Navigator({
    registry,
    engine,
    resolver,
    settings,
    approvals: kit.host.container.get(ApprovalsToken),
    gateOf: probeGate,
  });
  const call: ToolCall = {
    tool: 'browser',
    action: 'navigate',
    caller: { connectionId: 'conn-rig', clientName: 'browser-rig', clientVersion: '1.0.0', principal: null },
    signal: new AbortController().signal,
    progress: () => {},
  };
  return {
    kit,
    engine,
    registry,
    navigator,
    call,
    open: (posture = 'sandbox') => registry.open(posture, 'main'),
    async dispose() {
      registry.dispose();
      await engine.dispose();
      await kit.dispose();
    },
  };
}

/**
 * Sets environment variables the browser plugin reads when it starts (for a test host's
 * plugin), and returns how to put back what was there.
 */
export function setBrowserEnv(values: Readonly<Record<string, string>>): () => void {
  const before = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  Object.assign(process.env, values);
  return () => {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}
