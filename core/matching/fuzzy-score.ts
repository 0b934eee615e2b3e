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

/** ' ', '/', '\\', '-', '_', '.', ':' by char code: a keystroke tests thousands of them. */
function isSeparator(code: number): boolean {
  return (
    code === 32 || code === 47 || code === 92 || code === 45 || code === 95 || code === 46 || code === 58
  );
}

function isUpperAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 128) return code >= 65 && code <= 90;
  const c = text[index] ?? '';
  return c !== c.toLowerCase() && c === c.toUpperCase();
}

/** The bonus for a match at `index` of `text`. */
function positionBonus(text: string, index: number): number {
  if (index === 0) return START;
  if (isSeparator(text.charCodeAt(index - 1))) return WORD_START;
  if (isUpperAt(text, index) && !isUpperAt(text, index - 1)) return CAMEL_HUMP;
  return 0;
}

/** A query as the scorer reads it: spaces dropped, lower-cased. */
export function normalizeQuery(query: string): string {
  return query.replaceAll(' ', '').toLowerCase();
}

/** Two rows of the alignment table and the rows' ranges, reused across calls: a keystroke scores thousands of paths. */
let rows = [new Float64Array(256), new Float64Array(256)] as const;
let firsts = new Int32Array(64);
let lasts = new Int32Array(64);

/**
 * Row `i` of the table only needs the columns between the first place its character can match
 * (the greedy match from the left) and the last (the greedy match from the right): a column
 * before has no alignment, one after cannot be finished. Fills `firsts`/`lasts`; false when the
 * query's characters are not all in `lower`, in order.
 */
function rowRanges(q: string, lower: string): boolean {
  const m = q.length;
  if (firsts.length < m) {
    firsts = new Int32Array(m * 2);
    lasts = new Int32Array(m * 2);
  }
  let at = -1;
  for (let i = 0; i < m; i++) {
    at = lower.indexOf(q[i]!, at + 1);
    if (at === -1) return false;
    firsts[i] = at;
  }
  at = lower.length;
  for (let i = m - 1; i >= 0; i--) {
    at = lower.lastIndexOf(q[i]!, at - 1);
    lasts[i] = at;
  }
  return true;
}

/**
 * Fills the alignment table of the normalized query `q` over `text`, within the ranges
 * `rowRanges` found; row `i` goes to `rowOf(i)`. Returns the best score of the last row.
 */
function align(q: string, text: string, lower: string, rowOf: (i: number) => Float64Array): number {
  let previous = rowOf(0);
  const q0 = q.charCodeAt(0);
  for (let j = firsts[0]!; j <= lasts[0]!; j++) {
    previous[j] =
      lower.charCodeAt(j) === q0 ? MATCH + positionBonus(text, j) - j * LEADING_GAP_PER_CHAR : -Infinity;
  }
  for (let i = 1; i < q.length; i++) {
    const c = q.charCodeAt(i);
    const current = rowOf(i);
    const previousLast = lasts[i - 1]!;
    // A gap of g = j - k - 1 ≥ 1 characters costs GAP_OPEN + GAP_EXTEND·(g - 1): linear in k, so the
    // best earlier match is kept as a running maximum of previous[k] + GAP_EXTEND·k.
    let bestWithGap = -Infinity;
    let k = firsts[i - 1]!;
    for (let j = firsts[i]!; j <= lasts[i]!; j++) {
      for (; k <= j - 2 && k <= previousLast; k++) {
        const value = previous[k]! + GAP_EXTEND * k;
        if (value > bestWithGap) bestWithGap = value;
      }
      if (lower.charCodeAt(j) !== c) {
        current[j] = -Infinity;
        continue;
      }
      const consecutive = j - 1 <= previousLast ? previous[j - 1]! + CONSECUTIVE : -Infinity;
      const gapped = bestWithGap - GAP_EXTEND * (j - 2) - GAP_OPEN;
      const best = consecutive > gapped ? consecutive : gapped;
      current[j] = best > -Infinity ? best + MATCH + positionBonus(text, j) : -Infinity;
    }
    previous = current;
  }
  let score = -Infinity;
  const last = q.length - 1;
  for (let j = firsts[last]!; j <= lasts[last]!; j++) if (previous[j]! > score) score = previous[j]!;
  return score;
}

/**
 * The best alignment's score of the normalized query `q` (see `normalizeQuery`) in `text`, or
 * `null` when its characters are not all in it, in order. `lower` is `text` lower-cased.
 */
export function scoreNormalized(q: string, text: string, lower: string): number | null {
  if (q.length === 0) return 0;
  // Cheap refusal first: most candidates of a vault do not hold the query at all.
  if (!rowRanges(q, lower)) return null;
  const n = lower.length;
  if (rows[0].length < n) rows = [new Float64Array(n * 2), new Float64Array(n * 2)];
  const score = align(q, text, lower, (i) => rows[i % 2]!);
  return score === -Infinity ? null : score;
}

/**
 * The best alignment's score of `query` in `text`, or `null` when the query's characters are not
 * all in it, in order. `lower` is `text` lower-cased, for a caller that keeps it (an index).
 */
export function fuzzyScore(query: string, text: string, lower = text.toLowerCase()): number | null {
  return scoreNormalized(normalizeQuery(query), text, lower);
}

/**
 * Where the best alignment of `query` puts each of its characters in `text` (indexes, ascending),
 * for highlighting; `null` when it does not match. It keeps the whole table, so it is for the few
 * results shown, not for ranking.
 */
export function fuzzyPositions(query: string, text: string, lower = text.toLowerCase()): number[] | null {
  const q = normalizeQuery(query);
  if (q.length === 0) return [];
  if (!rowRanges(q, lower)) return null;
  const n = lower.length;
  const table = Array.from({ length: q.length }, () => new Float64Array(n).fill(-Infinity));
  if (align(q, text, lower, (i) => table[i]!) === -Infinity) return null;
  const last = q.length - 1;
  let j = firsts[last]!;
  for (let c = j; c <= lasts[last]!; c++) if (table[last]![c]! > table[last]![j]!) j = c;
  const positions = [j];
  // Walk back the choice `align` made at each cell: the consecutive match or the best gapped one.
  for (let i = last; i > 0; i--) {
    const previous = table[i - 1]!;
    const consecutive = j - 1 <= lasts[i - 1]! ? previous[j - 1]! + CONSECUTIVE : -Infinity;
    let bestK = -1;
    let bestWithGap = -Infinity;
    for (let k = firsts[i - 1]!; k <= j - 2 && k <= lasts[i - 1]!; k++) {
      const value = previous[k]! + GAP_EXTEND * k;
      if (value > bestWithGap) [bestWithGap, bestK] = [value, k];
    }
    const gapped = bestWithGap - GAP_EXTEND * (j - 2) - GAP_OPEN;
    j = consecutive > gapped ? j - 1 : bestK;
    positions.push(j);
  }
  return positions.reverse();
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
  const q = normalizeQuery(query);
  const ranked: Ranked<T>[] = [];
  for (const item of items) {
    const score = scoreNormalized(q, textOf(item), lowerOf(item));
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
