import { ApprovalsToken, definePlugin, HostInfoToken, SettingsToken, WorkbenchToken } from '@vmark/sdk';
import { BrowserSettings } from './browser-settings.js';
import { extractCommand } from './cli/extract-command.js';
import { BrowserEngine } from './engine/browser-engine.js';
import { headedBrowser } from './engine/headed.js';
import { probeGate } from './gates/gate-probe.js';
import { systemResolver } from './guard/resolver.js';
import { Navigator } from './navigation/navigator.js';
import { PageReader } from './reader/page-reader.js';
import { WorkflowRecorder } from './recording/workflow-recorder.js';
import { openSiteExtractors } from './reader/site-extractors.js';
import { BrowserSessions } from './session/browser-session.js';
import { Keychain } from './session/keychain.js';
import { TabRegistry } from './tabs/tab-registry.js';
import { browserReadTool } from './tools/browser-read-tool.js';
import { browserTool } from './tools/browser-tool.js';
import { browserViewProvider } from './view/browser-view-provider.js';
import { NEW_TAB_COMMAND, newTabCommand, newTabPanel } from './view/new-tab-panel.js';
import { workflowFileKind } from './workflow/workflow-file-kind.js';
import { RunRegistry } from './workflow/run-registry.js';

/** How long the browser keeps running with no tab open. */
const IDLE_MS = 120_000;

let engine: BrowserEngine | undefined;

export default definePlugin({
  activate(context) {
    const env = process.env;
    const settings = new BrowserSettings(context.get(SettingsToken), env);
    const resolver = systemResolver(env.VMARK_BROWSER_HOST_RULES ?? '');
    engine = new BrowserEngine({
      home: context.get(HostInfoToken).home,
      resolver,
      policy: () => ({ allowPrivateNetwork: settings.allowPrivateNetwork() }),
      endpoint: env.VMARK_BROWSER_ENDPOINT,
      headed: headedBrowser(env, context.get(HostInfoToken).editor ?? false),
      idleMs: IDLE_MS,
      env,
    });
    const workbench = context.get(WorkbenchToken);
    const approvals = context.get(ApprovalsToken);
    const registry = context.track(new TabRegistry(workbench, engine, approvals));
    const navigator = new Navigator({
      registry,
      engine,
      resolver,
      settings,
      approvals,
      gateOf: probeGate,
    });
    const sessions = new BrowserSessions(new Keychain(context.get(HostInfoToken).home), approvals);
    const recorder = context.track(new WorkflowRecorder(approvals));
    const reader = new PageReader(openSiteExtractors(context));
    const runs = context.track(new RunRegistry({ navigator, reader, approvals }));
    context.registerTool(
      browserTool({ workbench, registry, navigator, settings, sessions, approvals, runs, recorder }),
    );
    context.registerTool(browserReadTool({ registry, navigator, settings, reader, runs }));
    // A person taking a tab over pauses its run (vmark-notes §4.4, `lease-lost`).
    context.track(registry.lease.onTakenOver((tabId) => runs.pauseRunsOnTab(tabId, 'lease-lost')));
    context.registerCommand(extractCommand({ engine, resolver, settings, reader }));
    context.registerKind(workflowFileKind);
    context.registerViewProvider(browserViewProvider({ registry, resolver, settings }));
    context.registerPanel(newTabPanel({ registry, workbench, resolver, settings }));
    context.registerEditorCommand(NEW_TAB_COMMAND, newTabCommand({ registry }));
  },
  async deactivate() {
    await engine?.dispose();
    engine = undefined;
  },
});
