/**
 * Which element an act means. A ref names one (from a read of this page generation); a role
 * and name are looked up as `read` lists the page — main document, iframes and open shadow
 * roots alike — and counted: `matchedTotal` elements have that role and name, `matchedVisible`
 * of them are rendered. Hidden duplicates (a button in a collapsed accordion step) are passed
 * over; two rendered ones are `ambiguous`, with both refs, never a guess.
 */
import { TokenError } from '@vmark/sdk';
import type { FrameDocument } from '../perception/page-frames.js';
import { refGone } from '../perception/page-perception.js';
import { named } from '../perception/wait-for.js';
import type { BrowserTab } from '../tabs/browser-tab.js';
import type { ActTarget } from './act-args.js';
import type { Verified, VerifyReason } from './act-verify.js';

/** An element found for an act: its ref, what `read` calls it, and the document holding it. */
export interface Located {
  readonly ref: string;
  readonly role: string;
  readonly name: string;
  readonly document: FrameDocument;
  readonly matchedTotal?: number;
  readonly matchedVisible?: number;
}

export type ActReason = VerifyReason | 'ambiguous' | 'rejected-value' | 'no-such-option';

/** An act refused before anything was dispatched: `data.result` (vmark-notes §3.1). */
export interface ActRefusal {
  readonly reason: ActReason;
  readonly by?: string;
  readonly candidates?: readonly string[];
  readonly matchedTotal?: number;
  readonly matchedVisible?: number;
}

export type TargetOutcome =
  | { readonly kind: 'found'; readonly located: Located }
  | { readonly kind: 'refused'; readonly refusal: ActRefusal };

/** The element `target` names, or why none can be acted on. */
export async function locate(tab: BrowserTab, target: ActTarget): Promise<TargetOutcome> {
  const generation = tab.generation;
  const { snapshot } = await tab.perception.read(tab.url);
  if (target.kind === 'ref') {
    // A ref of an earlier page, or never given out, is refused at once (STALE_REF, UNKNOWN_REF).
    const document = tab.perception.refs.locate(generation, target.ref);
    const entry = snapshot.find((e) => e.ref === target.ref);
    return {
      kind: 'found',
      located: { ref: target.ref, role: entry?.role ?? 'element', name: entry?.name ?? '', document },
    };
  }
  const matches = snapshot.filter((e) => e.ref !== undefined && named(e, target.role, target.name));
  if (matches.length === 0) {
    throw new TokenError(
      'NOT_FOUND',
      `the page has no ${target.role} named "${target.name}"; read the page again for the names it has`,
      { role: target.role, name: target.name, matchedTotal: 0, matchedVisible: 0 },
    );
  }
  const checked = await Promise.all(
    matches.map(async (entry) => {
      const document = tab.perception.refs.locate(generation, entry.ref!);
      const verdict = await verify(tab, document, entry.ref!, { hitTest: false, scroll: false });
      return { entry, document, verdict };
    }),
  );
  const visible = checked.filter(({ verdict }) => !('reason' in verdict) || verdict.reason !== 'hidden');
  const counts = { matchedTotal: matches.length, matchedVisible: visible.length };
  if (visible.length === 0) {
    return {
      kind: 'refused',
      refusal: { reason: 'hidden', ...counts },
    };
  }
  if (visible.length > 1) {
    return {
      kind: 'refused',
      refusal: {
        reason: 'ambiguous',
        candidates: visible.map(({ entry }) => entry.ref!),
        ...counts,
      },
    };
  }
  const { entry, document } = visible[0]!;
  return {
    kind: 'found',
    located: { ref: entry.ref!, role: entry.role, name: entry.name, document, ...counts },
  };
}

/**
 * The world's verdict on acting on `ref` now (act-verify.ts): the point to press, or the
 * refusal as the client is told it (the world's `detail` is for a person reading the code).
 * @throws TokenError `STALE_REF` when its element has left the page.
 */
export async function verify(
  tab: BrowserTab,
  document: FrameDocument,
  ref: string,
  options: { readonly hitTest: boolean; readonly scroll: boolean },
): Promise<{ readonly x: number; readonly y: number } | ActRefusal> {
  const verdict = await document.world.library<Verified>(document.frameId, 'act', 'verify', [
    tab.generation,
    ref,
    options.hitTest,
    options.scroll,
  ]);
  if ('problem' in verdict) throw refGone(ref, verdict.problem);
  if (verdict.ok) return { x: verdict.x, y: verdict.y };
  return { reason: verdict.reason, ...(verdict.by === undefined ? {} : { by: verdict.by }) };
}
