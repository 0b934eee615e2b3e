/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/*
 * World code (see world-dom.ts): runs in the page's isolated world, self-contained.
 */
import type { WorldDom } from './world-dom.js';
import type { WorldEpoch } from './world-epoch.js';
import type { WorldNames } from './world-names.js';
import type { WorldRefs } from './world-refs.js';

/** A rendered control the accessibility tree left out (an `<a>` without href, a button under aria-hidden). */
export interface SupplementEntry {
  readonly role: string;
  readonly name: string;
  readonly ref: string;
  /** The index among the picked elements it follows in the document (-1: before them all). */
  readonly after: number;
  readonly cut: boolean;
  readonly checked?: boolean;
  readonly disabled?: true;
  readonly upload?: true;
}

export interface AssignResult {
  /** The ref of each pick, in order; null where its element was gone. */
  readonly refs: (string | null)[];
  /** The picks (indices) whose element is not rendered: the first to go when a snapshot is too big. */
  readonly unrendered: number[];
  readonly supplement: SupplementEntry[];
  readonly next: number;
}

/**
 * The world's half of `read`. The host reads the accessibility tree over CDP, which names DOM
 * nodes by backend id; the world cannot see those ids, so `collect` hands the host the
 * elements likely to be kept (their ids come back through CDP's deep serialization), and
 * `assign` gives refs to the ones the host picked, plus every rendered control it did not.
 */
export interface WorldSnapshot {
  /**
   * How many elements the document has (its size decides how the host reads it), and the
   * epoch token: while it stays the same, so does what `read` would find (world-epoch.ts).
   */
  state(): { size: number; epoch: string };
  /**
   * The candidate elements of the document and its open shadow roots, kept under a batch
   * number for `assign`: at most `budget`, `more` when there were others.
   */
  collect(budget: number): { batch: number; more: boolean; candidates: Element[] };
  /**
   * Refs for the host's picks — indices into the batch, or `-(k + 1)` for the k-th of
   * `extras` (elements the host resolved itself, e.g. inside closed shadow roots) — and, if
   * `coverage`, entries for the rendered controls among `scope` that were not picked.
   */
  assign(
    generation: number,
    next: number,
    batch: number,
    picks: readonly number[],
    coverage: 'document' | 'batch' | 'none',
    ...extras: Element[]
  ): AssignResult;
}

export function installSnapshot(
  dom: WorldDom,
  names: WorldNames,
  refs: WorldRefs,
  epoch: WorldEpoch,
): WorldSnapshot {
  const { roleOf, nameOf } = names;
  /** What a person can operate: these must all be addressable (the coverage rule). */
  const CONTROLS = 'a, button, input, select, textarea, [role=button], [tabindex]';
  /** Elements the accessibility tree usually keeps; anything else it keeps is resolved by id. */
  // Each one costs its share of the deep serialization (attributes included): only what is kept.
  const CANDIDATES =
    'a, button, input, select, textarea, option, summary, iframe, frame, img[alt]:not([alt=""]), video, ' +
    'audio, area, h1, h2, h3, h4, h5, h6, nav, main, header, footer, aside, form, search, dialog, ' +
    '[role], [tabindex], [contenteditable], [aria-label], [aria-labelledby]';
  const NAME_CHARS = 200;
  const batches = new Map<number, Element[]>();
  let nextBatch = 1;

  const describe = (element: Element, ref: string, after: number): SupplementEntry => {
    const role = roleOf(element);
    const full = nameOf(element);
    const cut = full.length > NAME_CHARS;
    const entry: {
      role: string;
      name: string;
      ref: string;
      after: number;
      cut: boolean;
      checked?: boolean;
      disabled?: true;
      upload?: true;
    } = { role, name: cut ? full.slice(0, NAME_CHARS) : full, ref, after, cut };
    if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio'))
      entry.checked = element.checked;
    if (element.matches(':disabled') || element.getAttribute('aria-disabled') === 'true')
      entry.disabled = true;
    if (element instanceof HTMLInputElement && element.type === 'file') entry.upload = true;
    return entry;
  };

  /** The index of the last picked element before `element` (picks are in document order). */
  const position = (picked: readonly { element: Element; index: number }[], element: Element) => {
    let low = 0;
    let high = picked.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (dom.before(picked[mid]!.element, element)) low = mid + 1;
      else high = mid;
    }
    return low === 0 ? -1 : picked[low - 1]!.index;
  };

  return {
    state: () => ({ size: document.getElementsByTagName('*').length, epoch: epoch.token() }),

    collect(budget) {
      const roots: (Document | ShadowRoot)[] = [document, ...dom.openShadowRoots(document, 1000)];
      const candidates: Element[] = [];
      let more = false;
      for (const root of roots) {
        const found = root.querySelectorAll(CANDIDATES);
        for (let i = 0; i < found.length; i++) {
          if (candidates.length >= budget) {
            more = true;
            break;
          }
          candidates.push(found[i]!);
        }
      }
      const batch = nextBatch++;
      batches.set(batch, candidates);
      // Reads of one document rarely overlap; a few batches cover the ones that do.
      if (batches.size > 4) batches.delete(batches.keys().next().value!);
      return { batch, more, candidates };
    },

    assign(generation, next, batch, picks, coverage, ...extras) {
      const pool = batches.get(batch) ?? [];
      const elements = picks.map((pick) => (pick >= 0 ? pool[pick] : extras[-pick - 1]) ?? null);
      const assigned = refs.refsFor(generation, elements, next);
      const unrendered: number[] = [];
      elements.forEach((element, index) => {
        if (element !== null && !dom.rendered(element)) unrendered.push(index);
      });
      const supplement: SupplementEntry[] = [];
      if (coverage === 'none') return { refs: assigned.refs, unrendered, supplement, next: assigned.next };

      const pickedSet = new Set<Element>();
      const picked: { element: Element; index: number }[] = [];
      elements.forEach((element, index) => {
        if (element === null || pickedSet.has(element)) return;
        pickedSet.add(element);
        picked.push({ element, index });
      });
      let scope: Element[];
      if (coverage === 'batch') scope = pool.filter((element) => element.matches(CONTROLS));
      else {
        scope = [];
        for (const root of [document, ...dom.openShadowRoots(document, 1000)])
          scope.push(...root.querySelectorAll(CONTROLS));
      }
      const missing = scope.filter((element) => !pickedSet.has(element) && dom.rendered(element));
      const more = refs.refsFor(generation, missing, assigned.next);
      missing.forEach((element, i) =>
        supplement.push(describe(element, more.refs[i]!, position(picked, element))),
      );
      return { refs: assigned.refs, unrendered, supplement, next: more.next };
    },
  };
}
