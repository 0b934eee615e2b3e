/**
 * `browser act` (vmark-notes §3.1, ADR 0039): find the element, verify it can really be acted
 * on (rendered, enabled, scrolled into view, not covered at the point to press), ask a person
 * for exactly this act on this page generation, verify again (the page had time to change),
 * then dispatch real input and say what followed. A refusal is an answer, not an error:
 * `data.result.reason`. Every answer carries the tab's `url` (redacted) and `generation`.
 */
import type { Approvals, ToolCall } from '@vmark/sdk';
import { TokenError } from '@vmark/sdk';
import type { BrowserTab } from '../tabs/browser-tab.js';
import type { ActRequest, Modifiers } from './act-args.js';
import {
  aimAt,
  insertText,
  movePointer,
  type PointerAim,
  pressKey,
  pressPointer,
  wheel,
} from './act-dispatch.js';
import { type Effect, observe } from './act-effect.js';
import { type ActRefusal, type Located, locate, verify } from './act-target.js';
import type { FieldKind } from './act-verify.js';
import { elementCrop } from './element-crop.js';
import { approvePageChange, hasStandingGrant } from './page-approval.js';
import { describeAct } from '../tabs/tab-activity.js';

export interface ActResult {
  readonly result: ActRefusal | ActDone;
  readonly url: string;
  readonly generation: number;
  readonly popup?: { readonly url: string };
}

/** What followed an act (the fields of vmark-notes §3.1, and `effect`). */
export interface ActDone {
  readonly matchedTotal?: number;
  readonly matchedVisible?: number;
  /** After a click: what it did. */
  readonly effect?: Effect;
  /** After a key: what the browser did with it (a submit on Enter, a focus move on Tab). */
  readonly defaultAction?: 'submit' | 'focus-moved';
}

/** How often a target that moves when the pointer reaches it is followed. */
const MAX_HOVER_MOVES = 3;
/** Wheel scrolling is animated: how long its end is waited for. */
const SCROLL_END_MS = 1500;

export async function act(
  tab: BrowserTab,
  request: ActRequest,
  approvals: Approvals,
  call: ToolCall,
): Promise<ActResult> {
  const answer = (result: ActRefusal | ActDone, popup?: { url: string }): ActResult => ({
    result,
    url: tab.url,
    generation: tab.generation,
    ...(popup ? { popup } : {}),
  });
  // A ref of an earlier page is refused first, and plainly (STALE_REF, UNKNOWN_REF).
  if (request.target?.kind === 'ref') tab.perception.refs.locate(tab.generation, request.target.ref);
  if (request.target?.kind === 'ref' && !hasStandingGrant(approvals, call, tab, request.operation)) {
    throw new TokenError(
      'NOT_GRANTED',
      `a bare ref is honoured only for an operation allowed on this site for good ('${request.operation}' on ` +
        `${tab.url} is not): act by role + name, so that the person is shown an element they can recognize`,
      { operation: request.operation, url: tab.url, ref: request.target.ref },
    );
  }
  let located: Located | null = null;
  if (request.target !== null) {
    const found = await locate(tab, request.target);
    if (found.kind === 'refused') return answer(found.refusal);
    located = found.located;
  }
  const counts = located ? countsOf(located) : {};
  const refused = await checkBefore(tab, request, located);
  if (refused !== null) return answer({ ...refused, ...counts });

  const generation = tab.generation;
  // For the person asked: a scroll changes nothing they need to recognize, and a standing grant asks nobody.
  const image =
    located !== null &&
    request.operation !== 'scroll' &&
    !hasStandingGrant(approvals, call, tab, request.operation)
      ? await elementCrop(tab, located)
      : undefined;
  await approvePageChange(approvals, call, {
    tab,
    operation: request.operation,
    what: describe(request, located),
    noted: describeAct(request),
    ...(image === undefined ? {} : { image }),
    retry: { action: 'act', tabId: tab.id },
  });
  if (tab.generation !== generation) {
    throw new TokenError(
      'STALE_REF',
      'the page navigated while the act waited for approval; read the page again and act on what it shows now',
      { generation: tab.generation },
    );
  }
  const done: ActDone = counts;

  switch (request.operation) {
    case 'click': {
      const aimed = await aim(tab, located!);
      if ('reason' in aimed) return answer({ ...aimed, ...counts });
      const seen = await observe(
        tab,
        located!.document,
        located!.ref,
        () => pressPointer(tab, aimed),
        'pointer',
      );
      return answer({ ...done, effect: seen.effect }, seen.popup);
    }
    case 'type':
      return answer(await type(tab, located!, request.text, counts, done));
    case 'key': {
      const document = located?.document ?? (await tab.perception.frames.main());
      if (located) await world(tab, located, 'focus', []);
      const seen = await observe(
        tab,
        document,
        null,
        () => pressKey(tab, request.key, request.modifiers),
        'key',
      );
      const defaultAction =
        request.key === 'Enter' && (seen.submitted || seen.effect === 'navigation-started')
          ? ('submit' as const)
          : request.key === 'Tab' && seen.focusMoved
            ? ('focus-moved' as const)
            : undefined;
      return answer({ ...done, ...(defaultAction ? { defaultAction } : {}) }, seen.popup);
    }
    case 'scroll': {
      if (located) {
        const inView = await world<boolean | string>(tab, located, 'scrollTo', []);
        if (inView !== true) return answer({ reason: 'offscreen', ...counts });
        return answer(done);
      }
      // Wheel scrolling is animated: the answer waits for its end, so that a read next sees where it went.
      const main = await tab.perception.frames.main();
      const ended = main.world.library<number>(main.frameId, 'act', 'scrollEnd', [SCROLL_END_MS]);
      await wheel(tab, request.dy!);
      await ended.catch(() => undefined);
      return answer(done);
    }
  }
}

function countsOf(located: Located): Pick<ActDone, 'matchedTotal' | 'matchedVisible'> {
  return located.matchedTotal === undefined
    ? {}
    : { matchedTotal: located.matchedTotal, matchedVisible: located.matchedVisible! };
}

/** What can be refused before a person is asked: the target's state, the field, the option. */
async function checkBefore(
  tab: BrowserTab,
  request: ActRequest,
  located: Located | null,
): Promise<ActRefusal | null> {
  if (located === null) return null;
  const pressing = request.operation === 'click' || request.operation === 'type';
  const verdict = await verify(tab, located.document, located.ref, { hitTest: pressing, scroll: true });
  if ('reason' in verdict) return verdict;
  if (request.operation !== 'type') return null;
  const kind = await fieldOf(tab, located);
  if (kind === 'not-a-field') {
    return { reason: 'rejected-value' }; // not a field that takes text
  }
  if (kind === 'select' && !(await world<boolean>(tab, located, 'choose', [request.text, false]))) {
    return { reason: 'no-such-option' };
  }
  return null;
}

/** Moves the pointer onto the target, following it if it moves away on hover; where it is, or why not. */
async function aim(tab: BrowserTab, located: Located): Promise<PointerAim | ActRefusal> {
  let verdict = await verify(tab, located.document, located.ref, { hitTest: true, scroll: true });
  for (let moves = 0; ; moves++) {
    if ('reason' in verdict) return verdict;
    const aimed = await aimAt(tab, located.document, verdict);
    await movePointer(tab, aimed);
    const again = await verify(tab, located.document, located.ref, { hitTest: true, scroll: false });
    if ('reason' in again) return again;
    if (Math.abs(again.x - verdict.x) < 1 && Math.abs(again.y - verdict.y) < 1) return aimed;
    // It moves whenever the pointer reaches it.
    if (moves >= MAX_HOVER_MOVES) return { reason: 'obscured', by: 'it moves away from the pointer' };
    verdict = again;
  }
}

async function type(
  tab: BrowserTab,
  located: Located,
  text: string,
  counts: Pick<ActDone, 'matchedTotal' | 'matchedVisible'>,
  done: ActDone,
): Promise<ActDone | ActRefusal> {
  const kind = await fieldOf(tab, located);
  if (kind === 'select') {
    if (!(await world<boolean>(tab, located, 'choose', [text, true])))
      return { reason: 'no-such-option', ...counts };
    return done;
  }
  // Focused as a person focuses it, by a click on it; then what it holds is replaced.
  const aimed = await aim(tab, located);
  if ('reason' in aimed) return { ...aimed, ...counts };
  await pressPointer(tab, aimed);
  await world(tab, located, 'selectAll', []);
  if (text === '') await pressKey(tab, 'Delete', {});
  else await insertText(tab, text);
  if (!(await world<boolean>(tab, located, 'holds', [text]))) {
    // The value is the page's now; what was typed is never echoed back.
    // A limit, a mask, or the page changed it.
    return {
      reason: 'rejected-value',
      ...counts,
    };
  }
  return done;
}

function fieldOf(tab: BrowserTab, located: Located): Promise<FieldKind> {
  return world<FieldKind>(tab, located, 'fieldKind', []);
}

/** Calls `act.method(generation, ref, ...args)` in the target's world. */
function world<T>(tab: BrowserTab, located: Located, method: string, args: readonly unknown[]): Promise<T> {
  return located.document.world.library<T>(located.document.frameId, 'act', method, [
    tab.generation,
    located.ref,
    ...args,
  ]);
}

/** Exactly what a person is asked to allow. */
function describe(request: ActRequest, located: Located | null): string {
  const element = located ? `${located.role} “${located.name}”` : '';
  switch (request.operation) {
    case 'click':
      return `click ${element}`;
    case 'type':
      return request.text === '' ? `clear ${element}` : `type “${request.text}” into ${element}`;
    case 'key':
      return `press ${chord(request.key, request.modifiers)}${located ? ` in ${element}` : ' on the page'}`;
    case 'scroll':
      return located ? `scroll ${element} into view` : `scroll the page by ${request.dy} px`;
  }
}

function chord(key: string, modifiers: Modifiers): string {
  const held = (['ctrl', 'shift', 'alt', 'meta'] as const).filter((name) => modifiers[name] === true);
  return [...held.map((name) => name[0]!.toUpperCase() + name.slice(1)), key].join('+');
}
