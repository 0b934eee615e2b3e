/*
 * The fuzzy scorer of the command palette and quick open: the query's characters, in order, in
 * the candidate, case-insensitively. An alignment scores per matched character, with bonuses
 * where a person's eye lands (the start, a word start after a separator, a camel hump, a run of
 * consecutive matches), and pays for each gap between two matches by its length. The best
 * alignment is found by dynamic programming in O(query × candidate).
 */

// The weights follow fzf's (a match is worth 16, a gap costs 3 to open and 1 a character more).
const MATCH = 16;
const START = 16;
const WORD_START = 8;
const CAMEL_HUMP = 7;
const CONSECUTIVE = 8;
const GAP_OPEN = 3;
const GAP_EXTEND = 1;
/** Characters before the first match cost less than gaps inside the match: paths have long folders. */
const LEADING_GAP_PER_CHAR = 0.1;
const SEPARATORS = new Set([' ', '/', '\\', '-', '_', '.', ':']);

function isUpper(c: string): boolean {
  return c !== c.toLowerCase() && c === c.toUpperCase();
}

/** The bonus for a match at `index` of `text`. */
function positionBonus(text: string, index: number): number {
  if (index === 0) return START;
  const before = text[index - 1] ?? '';
  if (SEPARATORS.has(before)) return WORD_START;
  if (isUpper(text[index] ?? '') && !isUpper(before)) return CAMEL_HUMP;
  return 0;
}

/** Two rows of the alignment table, reused across calls: a keystroke scores thousands of paths. */
let rows = [new Float64Array(256), new Float64Array(256)] as const;

/**
 * The best alignment's score of `query` in `text`, or `null` when the query's characters are not
 * all in it, in order. `lower` is `text` lower-cased, for a caller that keeps it (an index).
 */
export function fuzzyScore(query: string, text: string, lower = text.toLowerCase()): number | null {
  const q = query.replaceAll(' ', '').toLowerCase();
  if (q.length === 0) return 0;
  // Cheap refusal first: most candidates of a vault do not hold the query at all.
  let at = -1;
  for (const c of q) {
    at = lower.indexOf(c, at + 1);
    if (at === -1) return null;
  }
  const n = text.length;
  if (rows[0].length < n) rows = [new Float64Array(n * 2), new Float64Array(n * 2)];
  let [previous, current] = rows;
  for (let j = 0; j < n; j++) {
    previous[j] = lower[j] === q[0] ? MATCH + positionBonus(text, j) - j * LEADING_GAP_PER_CHAR : -Infinity;
  }
  for (let i = 1; i < q.length; i++) {
    const c = q[i];
    // A gap of g = j - k - 1 ≥ 1 characters costs GAP_OPEN + GAP_EXTEND·(g - 1): linear in k, so the
    // best earlier match is kept as a running maximum of previous[k] + GAP_EXTEND·k.
    let bestWithGap = -Infinity;
    for (let j = 0; j < n; j++) {
      if (j >= 2) bestWithGap = Math.max(bestWithGap, (previous[j - 2] ?? -Infinity) + GAP_EXTEND * (j - 2));
      if (j < i || lower[j] !== c) {
        current[j] = -Infinity;
        continue;
      }
      const consecutive = (previous[j - 1] ?? -Infinity) + CONSECUTIVE;
      const gapped = bestWithGap - GAP_EXTEND * (j - 2) - GAP_OPEN;
      const best = Math.max(consecutive, gapped);
      current[j] = best > -Infinity ? best + MATCH + positionBonus(text, j) : -Infinity;
    }
    [previous, current] = [current, previous];
  }
  let score = -Infinity;
  for (let j = 0; j < n; j++) score = Math.max(score, previous[j] ?? -Infinity);
  return score === -Infinity ? null : score;
}

export interface Ranked<T> {
  readonly item: T;
  readonly score: number;
}

/**
 * The `limit` best of `items` for `query`, best first. The recent ones (most recent first) come
 * before all others that match; an empty query lists the recent ones, then the rest in order.
 * `lowerOf` gives an item's text lower-cased, when the caller keeps that.
 */
export function rankMatches<T>(
  query: string,
  items: readonly T[],
  textOf: (item: T) => string,
  recent: readonly T[],
  limit: number,
  lowerOf: (item: T) => string = (item) => textOf(item).toLowerCase(),
): Ranked<T>[] {
  const ranked: Ranked<T>[] = [];
  for (const item of items) {
    const score = fuzzyScore(query, textOf(item), lowerOf(item));
    if (score !== null) ranked.push({ item, score });
  }
  ranked.sort(byRecencyThenScore(recent));
  return ranked.slice(0, limit);
}

/** The order of ranked items: the recent ones first (most recent first), then by score. */
export function byRecencyThenScore<T>(recent: readonly T[]): (a: Ranked<T>, b: Ranked<T>) => number {
  const recency = new Map(recent.map((item, i) => [item, recent.length - i]));
  return (a, b) => (recency.get(b.item) ?? 0) - (recency.get(a.item) ?? 0) || b.score - a.score;
}
