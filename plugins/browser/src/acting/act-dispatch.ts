/**
 * How an act reaches the page: as a person's input does, through CDP `Input.*` (Playwright's
 * mouse and keyboard send `Input.dispatchMouseEvent`, `Input.insertText` and
 * `Input.dispatchKeyEvent`), never `element.click()` from a script. The events are trusted,
 * hit-tested by the browser itself, and carry the user activation a page may require; the
 * browser's own default actions (a submit on Enter, focus moving on Tab) follow from them.
 * Every dispatch is bounded: a page whose handler never returns cannot hold the call.
 */
import { TokenError } from '@vmark/sdk';
import type { CDPSession } from 'playwright-core';
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
 * A point of a frame's viewport in the page's (main frame's) viewport, where the page's picture
 * is taken: an iframe's point moves by where its frame's content box is.
 */
export async function pagePoint(tab: BrowserTab, document: FrameDocument, point: Point): Promise<Point> {
  if (document.world === tab.world && document.frameId === (await tab.world.mainFrameId())) return point;
  return inOwner(await tab.world.session(), document.frameId, point);
}

/**
 * Where pointer input for a document goes, and at which point. The page's own documents (the
 * main frame, and the iframes its process draws) take it through the page's mouse, at their point
 * in the page's viewport. A document drawn by another process (a cross-site iframe) takes it
 * through its own target, at its point in that target's viewport: sent through the page, the
 * browser routes each event by its own map of where the frame sits, which can lag behind the
 * page's layout after something above the frame moved — measured, about one click in five then
 * reached the frame at the wrong point, or reached another process, or reached it half (the
 * press in one, the release in the other).
 */
export interface PointerAim {
  readonly through: 'page' | CDPSession;
  readonly point: Point;
}

export async function aimAt(tab: BrowserTab, document: FrameDocument, point: Point): Promise<PointerAim> {
  if (document.world === tab.world) return { through: 'page', point: await pagePoint(tab, document, point) };
  const session = await document.world.session();
  const inItsView =
    document.frameId === (await document.world.mainFrameId())
      ? point
      : await inOwner(session, document.frameId, point);
  return { through: session, point: inItsView };
}

/** `point` of frame `frameId` moved by where its `<iframe>` element's content box is, as `session` sees it. */
async function inOwner(session: CDPSession, frameId: string, point: Point): Promise<Point> {
  const { backendNodeId } = await session.send('DOM.getFrameOwner', { frameId });
  const { model } = await session.send('DOM.getBoxModel', { backendNodeId });
  return { x: point.x + model.content[0]!, y: point.y + model.content[1]! };
}

export function movePointer(tab: BrowserTab, aim: PointerAim): Promise<void> {
  const { through, point } = aim;
  const moved =
    through === 'page' ? tab.page.mouse.move(point.x, point.y) : mouseEvent(through, 'mouseMoved', point);
  return bounded(moved, 'the pointer move');
}

/** A left click at the aim: press, then release. */
export async function pressPointer(tab: BrowserTab, aim: PointerAim): Promise<void> {
  const { through, point } = aim;
  if (through === 'page') {
    // The page's mouse is where the aim moved it.
    await bounded(tab.page.mouse.down(), 'the click');
    await bounded(tab.page.mouse.up(), 'the click');
    return;
  }
  await bounded(mouseEvent(through, 'mousePressed', point), 'the click');
  await bounded(mouseEvent(through, 'mouseReleased', point), 'the click');
}

/** One mouse event of a left-button click, sent as the page's mouse sends it. */
async function mouseEvent(
  session: CDPSession,
  type: 'mouseMoved' | 'mousePressed' | 'mouseReleased',
  point: Point,
): Promise<void> {
  const moving = type === 'mouseMoved';
  await session.send('Input.dispatchMouseEvent', {
    type,
    x: point.x,
    y: point.y,
    button: moving ? 'none' : 'left',
    buttons: type === 'mousePressed' ? 1 : 0,
    clickCount: moving ? 0 : 1,
  });
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
