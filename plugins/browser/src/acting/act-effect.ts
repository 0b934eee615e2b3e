/**
 * What an act did, seen from outside the page's reach: a navigation of the tab (the navigator's
 * requests and the tab's generation), a change of the document, a move of the focus (both seen
 * by a MutationObserver and focus listeners in the isolated world), or nothing observable —
 * so a click that silently did nothing is visible to the AI. The watch is event-driven: it
 * ends at the first sign, or after a short settle window when there is none. A popup the page
 * tries to open meanwhile is closed at once and reported.
 */
import type { Page, Request } from 'playwright-core';
import type { FrameDocument } from '../perception/page-frames.js';
import type { BrowserTab } from '../tabs/browser-tab.js';
import { urlForAgent } from '../url/redact.js';
import type { Watched } from './act-verify.js';

export type Effect = 'navigation-started' | 'dom-changed' | 'focus-moved' | 'nothing-observable';

export interface Observed {
  readonly effect: Effect;
  readonly submitted: boolean;
  readonly focusMoved: boolean;
  /** The first popup the page tried to open (it was closed). */
  readonly popup?: { readonly url: string };
}

/** How long a press is given to show an effect when it shows none. */
const SETTLE_MS = 400;
/**
 * How long a pointer press is given to reach its document. A frame of another process can lag
 * by seconds on a busy machine; the wait ends the moment the press arrives, so only a press that
 * went elsewhere (an overlay that appeared) pays all of it before "nothing-observable".
 */
const DELIVERY_MS = 4000;
/** How long a navigation that started is given to commit, so the answer has the new URL and generation. */
const COMMIT_MS = 3000;

/** Runs `dispatch` and watches what follows it in `document` (acting on `ref`, if any) and in the tab. */
export async function observe(
  tab: BrowserTab,
  document: FrameDocument,
  ref: string | null,
  dispatch: () => Promise<void>,
  press: 'pointer' | 'key',
): Promise<Observed> {
  const page = tab.page;
  const generation = tab.generation;
  let navigated!: () => void;
  const navigation = new Promise<'navigation'>((resolve) => (navigated = () => resolve('navigation')));
  const onRequest = (request: Request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigated();
  };
  const onNavigated = () => {
    if (tab.generation !== generation) navigated();
  };
  const popups = blockPopups(page);
  page.on('request', onRequest);
  page.on('framenavigated', onNavigated);
  try {
    const id = await document.world.library<number>(document.frameId, 'act', 'watch', [generation, ref]);
    await dispatch();
    const settling = document.world
      .library<Watched>(document.frameId, 'act', 'settle', [
        id,
        SETTLE_MS,
        // A key goes to the focused frame, which need not be this document; a pointer press to the target's.
        press === 'pointer' ? DELIVERY_MS : 0,
      ])
      // The document going away (a navigation) ends the watch: the navigation says what happened.
      .catch(() => navigation);
    const seen = await Promise.race([settling, navigation]);
    if (seen === 'navigation') {
      await committed(tab, generation, COMMIT_MS);
      return { effect: 'navigation-started', submitted: false, focusMoved: false, ...popups.seen() };
    }
    const effect: Effect = seen.mutated
      ? 'dom-changed'
      : seen.focusMoved
        ? 'focus-moved'
        : 'nothing-observable';
    return { effect, submitted: seen.submitted, focusMoved: seen.focusMoved, ...popups.seen() };
  } finally {
    page.off('request', onRequest);
    page.off('framenavigated', onNavigated);
    popups.stop();
  }
}

/** Resolves once the tab's main frame has committed a new document (its generation moved on), or after `ms`. */
function committed(tab: BrowserTab, generation: number, ms: number): Promise<void> {
  if (tab.generation !== generation) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      if (tab.generation === generation && !timedOut) return;
      clearTimeout(timer);
      tab.page.off('framenavigated', done);
      resolve();
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      done();
    }, ms);
    tab.page.on('framenavigated', done);
  });
}

/**
 * Popups the page opens while an act runs are closed as they appear (Chromium's own popup
 * blocker, left on, refuses all but one per user gesture), and the first is reported.
 */
function blockPopups(page: Page): { seen(): { popup?: { url: string } }; stop(): void } {
  let first: string | undefined;
  const onPopup = (popup: Page) => {
    first ??= urlForAgent(popup.url());
    popup.close().catch(() => undefined);
  };
  page.on('popup', onPopup);
  return {
    seen: () => (first === undefined ? {} : { popup: { url: first } }),
    stop: () => page.off('popup', onPopup),
  };
}
