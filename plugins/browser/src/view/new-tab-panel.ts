/**
 * The Browser panel's host half (ADR 56): where a person opens a browser tab of their own when
 * no browser tab is open (the "+" beside an address bar needs one). The tab is the same as the
 * "+" opens (ADR 52) — the shared posture, the person's — in the window the person is in. The
 * panel is the browser plugin's contribution, so it goes when the plugin is turned off. The
 * editor command "New browser tab" (`browser.newTab`, ADR 61) opens the same tab, blank, in the
 * window it was run in: the person types its address in the tab's own address bar.
 */
import { ArgumentError, type EditorCommandHandler, type PanelProvider, type Workbench, z } from '@vmark/sdk';
import type { TabRegistry } from '../tabs/tab-registry.js';
import { type AddressServices, allowedTarget } from './typed-address.js';

export const NEW_TAB_PANEL = 'new-tab';
export const NEW_TAB_COMMAND = 'browser.newTab';

export interface NewTabServices extends AddressServices {
  readonly registry: TabRegistry;
  readonly workbench: Workbench;
}

const openParams = z.object({ url: z.string().trim().min(1).max(8192) }).strict();

export function newTabPanel(services: NewTabServices): PanelProvider {
  return {
    id: NEW_TAB_PANEL,
    load: () => ({}),
    actions: {
      open: async (params) => {
        const parsed = openParams.safeParse(params);
        if (!parsed.success) throw new ArgumentError(z.prettifyError(parsed.error));
        const target = await allowedTarget(parsed.data.url, services);
        // The page asks without naming its window: the person's is the focused one.
        const windowLabel = services.workbench.state().find((w) => w.focused)?.label ?? 'main';
        const tab = await services.registry.openHuman(windowLabel);
        tab.navigate(target);
        return { tabId: tab.id };
      },
    },
  };
}

/** "New browser tab": a blank tab of the person's own, in the window the command was run in. */
export function newTabCommand(services: Pick<NewTabServices, 'registry'>): EditorCommandHandler {
  return async ({ windowLabel }) => {
    const tab = await services.registry.openHuman(windowLabel);
    return `Opened ${tab.id}, a browser tab of your own: pick it in the tab strip and type an address.`;
  };
}
