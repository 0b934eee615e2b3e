/**
 * `browser_read wait_for`: waits, at most `timeoutMs`, until the page shows what was asked —
 * the element of a ref rendered, an element of a role (and name) as `read` would list it, a
 * text, or a URL containing a needle — and answers `{matched, ref?}`; running out of time is
 * `{matched: false}`, not an error. Between checks it waits for the document's next change
 * (a MutationObserver in the isolated world) or a short while, whichever comes first, so a
 * still page costs little and a changing one is seen at once.
 */
import type { Page } from 'playwright-core';
import { TokenError } from '@vmark/sdk';
import type { BrowserTab } from '../tabs/browser-tab.js';
import type { SnapshotEntry } from './document-snapshot.js';
import { sleep, withDeadline } from './deadline.js';

export type WaitTarget =
  | { readonly kind: 'ref'; readonly ref: string }
  | { readonly kind: 'role'; readonly role: string; readonly name?: string }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'url'; readonly urlContains: string };

export interface WaitResult {
  readonly matched: boolean;
  readonly ref?: string;
}

/** The longest pause between two checks of a page that does not change. */
const PAUSE_MS = 250;

export async function waitFor(tab: BrowserTab, target: WaitTarget, timeoutMs: number): Promise<WaitResult> {
  const deadline = Date.now() + timeoutMs;
  const generation = tab.generation;
  // A ref from an earlier page, or never given out, is refused at once.
  if (target.kind === 'ref') tab.perception.refs.locate(generation, target.ref);
  for (;;) {
    if (tab.closed !== null)
      throw new TokenError('TAB_CLOSED', `tab ${tab.id} closed while waiting`, { tabId: tab.id });
    const left = deadline - Date.now();
    if (left <= 0) return { matched: false };
    const found = await withDeadline(check(tab, target, generation), left, 'wait_for').catch(
      (error: unknown) => {
        if (error instanceof TokenError && error.token === 'TIMEOUT') return { matched: false };
        throw error;
      },
    );
    if (found.matched) return found;
    const pause = Math.min(deadline - Date.now(), PAUSE_MS);
    if (pause <= 0) return { matched: false };
    await (target.kind === 'url' ? nextNavigation(tab.page, pause) : nextChange(tab, pause));
  }
}

async function check(tab: BrowserTab, target: WaitTarget, generation: number): Promise<WaitResult> {
  const perception = tab.perception;
  switch (target.kind) {
    case 'url':
      return { matched: tab.url.includes(target.urlContains) };
    case 'ref': {
      if (tab.generation !== generation) tab.perception.refs.locate(tab.generation, target.ref);
      const document = perception.refs.locate(generation, target.ref);
      const state = await document.world.library<string>(document.frameId, 'wait', 'refState', [
        generation,
        target.ref,
      ]);
      if (state === 'gone' || state === 'unknown') {
        throw new TokenError(
          'STALE_REF',
          `the element ref ${target.ref} named has left the page; read the page again`,
          {
            ref: target.ref,
          },
        );
      }
      return state === 'rendered' ? { matched: true, ref: target.ref } : { matched: false };
    }
    case 'role': {
      // As `read` lists the page: the same roles and names, frames included.
      const { snapshot } = await perception.read(tab.url);
      const entry = snapshot.find((e) => e.ref !== undefined && named(e, target.role, target.name));
      return entry === undefined ? { matched: false } : { matched: true, ref: entry.ref! };
    }
    case 'text': {
      const document = await perception.frames.main();
      const found = await perception.refs.allocate(
        generation,
        document,
        (next) =>
          document.world
            .library<{ ref: string; next: number } | null>(document.frameId, 'wait', 'findText', [
              generation,
              next,
              target.text,
            ])
            .then((answer) => answer ?? { ref: null, next }),
        (answer) => [answer.ref],
      );
      return found.ref === null ? { matched: false } : { matched: true, ref: found.ref };
    }
  }
}

function comparable(name: string): string {
  return name.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * Whether a read entry is the element of `role` named `name` (any name when omitted): names
 * compared without case or spacing, a name `read` cut (ending in …) by its beginning.
 */
export function named(entry: SnapshotEntry, role: string, name: string | undefined): boolean {
  if (entry.role !== role) return false;
  if (name === undefined) return true;
  const wanted = comparable(name);
  return (
    comparable(entry.name) === wanted ||
    (entry.name.endsWith('…') && wanted.startsWith(comparable(entry.name.slice(0, -1))))
  );
}

/** The main document's next change, or `ms`; a document going away (navigation) ends the wait too. */
async function nextChange(tab: BrowserTab, ms: number): Promise<void> {
  const document = await tab.perception.frames.main();
  await withDeadline(
    document.world.library<boolean>(document.frameId, 'wait', 'nextChange', [ms]),
    ms + 1000,
    'wait',
  ).catch(() => sleep(Math.min(ms, 50)));
}

function nextNavigation(page: Page, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      page.off('framenavigated', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    page.on('framenavigated', done);
  });
}
