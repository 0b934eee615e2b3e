import type { PanelRegistration, PluginHooks } from '@vmark/sdk';

/** Tells the breakdown panel to load again after the events that can change what it shows. */
export function refreshBreakdownOn(hooks: PluginHooks, panel: Pick<PanelRegistration, 'refresh'>): void {
  // After an AI's (or the host's) write; its load waits for the captures the write queued. Not on a
  // keystroke (no ledger change), nor on a reload from disk: that fires mid-write, and a scan of a
  // half-written file would be recorded as an edit. The person's Refresh covers outside edits.
  hooks.tap('documentWritten', (event) => {
    if (event.origin.kind === 'mcp' || event.origin.kind === 'host') panel.refresh();
  });
  for (const hook of ['documentSaved', 'documentOpened', 'workspaceOpened'] as const)
    hooks.tap(hook, () => panel.refresh());
}
