/**
 * How an act reaches the page: as a person's input does, through CDP `Input.*` (Playwright's
 * mouse and keyboard send `Input.dispatchMouseEvent`, `Input.insertText` and
 * `Input.dispatchKeyEvent`), never `element.click()` from a script. The events are trusted,
 * hit-tested by the browser itself, and carry the user activation a page may require; the
 * browser's own default actions (a submit on Enter, focus moving on Tab) follow from them.
 * Every dispatch is bounded: a page whose handler never returns cannot hold the call.
 */
import { TokenError } from '@vmark/sdk';
import type { FrameDocument } from '../perception/page-frames.js';
import type { BrowserTab } from '../tabs/browser-tab.js';
import { TIMED_OUT, within } from '../time-bound.js';
import type { Modifiers } from './act-args.js';

/** Longer than any input a page handles at once; a page still busy after it is stuck. */
const DISPATCH_MS = 5000;

export interface Point {
  readonly x: number;
  readonly y: number;
}

/**
 * A point of a frame's viewport in the page's (main frame's) viewport, where input is sent:
 * an iframe's point moves by where its frame's content box is.
 */
export async function pagePoint(tab: BrowserTab, document: FrameDocument, point: Point): Promise<Point> {
  if (document.world === tab.world && document.frameId === (await tab.world.mainFrameId())) return point;
  const session = await tab.world.session();
  const { backendNodeId } = await session.send('DOM.getFrameOwner', { frameId: document.frameId });
  const { model } = await session.send('DOM.getBoxModel', { backendNodeId });
  return { x: point.x + model.content[0]!, y: point.y + model.content[1]! };
}

export function movePointer(tab: BrowserTab, point: Point): Promise<void> {
  return bounded(tab.page.mouse.move(point.x, point.y), 'the pointer move');
}

/** A left click where the pointer is: press, then release. */
export async function pressPointer(tab: BrowserTab): Promise<void> {
  await bounded(tab.page.mouse.down(), 'the click');
  await bounded(tab.page.mouse.up(), 'the click');
}

export function insertText(tab: BrowserTab, text: string): Promise<void> {
  return bounded(tab.page.keyboard.insertText(text), 'the typing');
}

/** `key` with its modifiers held, as one chord ("Control+Shift+K"). */
export async function pressKey(tab: BrowserTab, key: string, modifiers: Modifiers): Promise<void> {
  const held = [
    modifiers.ctrl ? 'Control' : null,
    modifiers.shift ? 'Shift' : null,
    modifiers.alt ? 'Alt' : null,
    modifiers.meta ? 'Meta' : null,
  ].filter((name) => name !== null);
  await bounded(tab.page.keyboard.press([...held, key].join('+')), 'the key press');
}

/** A wheel turn of `dy` pixels where the pointer is. */
export function wheel(tab: BrowserTab, dy: number): Promise<void> {
  return bounded(tab.page.mouse.wheel(0, dy), 'the scroll');
}

async function bounded(work: Promise<void>, what: string): Promise<void> {
  const outcome = await within(work, DISPATCH_MS);
  if (outcome === TIMED_OUT) {
    throw new TokenError(
      'TIMEOUT',
      `${what} was not taken within ${DISPATCH_MS / 1000} s: the page is not answering (a script may be keeping it busy)`,
    );
  }
}
