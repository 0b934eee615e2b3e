/**
 * The host half of a browser tab's view in the editor (issue 17, ADR 49): its live picture and
 * page state (`watch` of the tab's id), and what the person does there — input, the address bar,
 * back, forward, reload, "Hand back to AI", and a new tab of the person's own (ADR 52). The person's first input takes the tab over (the
 * lease); the AI gets it back only when they hand it back. Every argument comes from the editor
 * page and is checked; a tab id names one of the AI's open tabs or nothing.
 */
import { ArgumentError, type ViewProvider, z } from '@vmark/sdk';
import type { BrowserSettings } from '../browser-settings.js';
import type { Resolver } from '../guard/resolver.js';
import type { BrowserTab } from '../tabs/browser-tab.js';
import type { ListedEntry } from '../tabs/tab-activity.js';
import type { TabRegistry } from '../tabs/tab-registry.js';
import { forwardInput, parsePersonInput } from './person-input.js';
import { Screencast } from './screencast.js';
import { allowedTarget } from './typed-address.js';

export const BROWSER_TAB_KIND = 'browser';

/** What a view is sent: a picture, or the tab's state whenever it changes. */
export type ViewMessage =
  | {
      readonly type: 'frame';
      readonly jpeg: string;
      readonly width: number;
      readonly height: number;
      readonly timestamp: number;
    }
  | {
      readonly type: 'state';
      readonly url: string;
      readonly title: string;
      readonly loading: boolean;
      readonly driver: 'ai' | 'human';
      readonly automationMode: string;
    }
  | { readonly type: 'activity'; readonly entries: readonly ListedEntry[] };

export interface BrowserViewServices {
  readonly registry: TabRegistry;
  readonly resolver: Resolver;
  readonly settings: BrowserSettings;
}

/** The longest a history step waits for the one before it to load. */
const STEP_WAIT_MS = 3000;

const tabParams = z.object({ tabId: z.string().min(1).max(200) }).strict();
const inputParams = z.object({ tabId: z.string().min(1).max(200), input: z.unknown() }).strict();
const pictureParams = z
  .object({ tabId: z.string().min(1).max(200), entryId: z.number().int().positive() })
  .strict();
const addressParams = z
  .object({ tabId: z.string().min(1).max(200), url: z.string().min(1).max(8192) })
  .strict();

export function browserViewProvider(services: BrowserViewServices): ViewProvider {
  const { registry } = services;
  const screencasts = new WeakMap<BrowserTab, Screencast>();
  const screencastOf = (tab: BrowserTab) => {
    let screencast = screencasts.get(tab);
    if (screencast === undefined) screencasts.set(tab, (screencast = new Screencast(tab)));
    return screencast;
  };
  /** The tab the person acts on, taken over from the AI (their own tab is theirs already). */
  const driven = (tabId: string) => {
    const tab = registry.peek(tabId);
    if (tab.owner === 'ai') registry.lease.takeOver(tab.id);
    return tab;
  };
  return {
    kind: BROWSER_TAB_KIND,
    actions: {
      state: (params) => stateOf(registry, registry.peek(parsed(tabParams, params).tabId)),
      input: async (params) => {
        const { tabId, input } = parsed(inputParams, params);
        const event = parsePersonInput(input);
        const tab = driven(tabId);
        await forwardInput(tab.page, event);
        return {};
      },
      navigate: async (params) => {
        const { tabId, url } = parsed(addressParams, params);
        const target = await allowedTarget(url, services);
        // The ticket settles by itself; the view follows the page by its state and picture.
        driven(tabId).navigate(target);
        return {};
      },
      // The person opens a tab of their own beside this one (ADR 52): the AI sees it only as the seed allows.
      openTab: async (params) => {
        const { tabId, url } = parsed(addressParams, params);
        const beside = registry.peek(tabId);
        const target = await allowedTarget(url, services);
        const tab = await registry.openHuman(beside.windowLabel);
        tab.navigate(target);
        return { tabId: tab.id };
      },
      back: (params) => history(driven(parsed(tabParams, params).tabId), 'back'),
      forward: (params) => history(driven(parsed(tabParams, params).tabId), 'forward'),
      reload: (params) => history(driven(parsed(tabParams, params).tabId), 'reload'),
      activity: (params) => ({ entries: registry.peek(parsed(tabParams, params).tabId).activity.list() }),
      // A picture the plugin took itself, as base64 JPEG: the page never gives the view markup.
      activityPicture: (params) => {
        const { tabId, entryId } = parsed(pictureParams, params);
        const picture = registry.peek(tabId).activity.picture(entryId);
        return { jpeg: picture === null ? null : picture.toString('base64') };
      },
      handBack: (params) => {
        const tab = registry.peek(parsed(tabParams, params).tabId);
        registry.lease.handBack(tab.id);
        return stateOf(registry, tab);
      },
    },
    watch(topic, send) {
      const tab = registry.peek(topic);
      const tell = () => send(stateOf(registry, tab) satisfies ViewMessage);
      tell();
      const stopPicture = screencastOf(tab).watch((frame) =>
        send({ type: 'frame', ...frame } satisfies ViewMessage),
      );
      const offChange = tab.onChange(tell);
      const tellActivity = () =>
        send({ type: 'activity', entries: tab.activity.list() } satisfies ViewMessage);
      tellActivity();
      const offActivity = tab.activity.onChanged(tellActivity);
      const offLease = registry.lease.onChanged((tabId) => {
        if (tabId === tab.id) tell();
      });
      return () => {
        stopPicture();
        offChange();
        offActivity();
        offLease.dispose();
      };
    },
  };
}

function parsed<T>(schema: z.ZodType<T>, params: unknown): T {
  const result = schema.safeParse(params);
  if (!result.success) throw new ArgumentError(z.prettifyError(result.error));
  return result.data;
}

function stateOf(registry: TabRegistry, tab: BrowserTab): ViewMessage {
  return {
    type: 'state',
    url: tab.url,
    title: tab.title,
    loading: tab.loading,
    // A person's own tab is theirs to drive; the AI only reads it, asked each time (ADR 52).
    driver: tab.owner === 'human' ? 'human' : registry.lease.driver(tab.id),
    automationMode: tab.automationMode,
  };
}

/** Each tab's last history step, so that the next one starts after it (see `history`). */
const lastStep = new WeakMap<BrowserTab, Promise<unknown>>();

function history(tab: BrowserTab, direction: 'back' | 'forward' | 'reload'): Record<string, never> {
  // Started, not waited for: the view follows the page by its state and picture. A step reads
  // the tab's history when it starts, so a forward clicked while back is still under way waits
  // for it (at most a few seconds: a page that never loads holds nothing up for long).
  const previous = lastStep.get(tab) ?? Promise.resolve();
  const settled = Promise.race([previous, new Promise((resolve) => setTimeout(resolve, STEP_WAIT_MS))]);
  const going = settled.then(() =>
    direction === 'back'
      ? tab.page.goBack({ timeout: 0 })
      : direction === 'forward'
        ? tab.page.goForward({ timeout: 0 })
        : tab.page.reload({ timeout: 0 }),
  );
  const step = going.catch(() => undefined);
  lastStep.set(tab, step);
  return {};
}
