/**
 * The integrity check `cjk-format` must pass before its result is used (design notes
 * §2.3: a failure is reported as an error, never a silent no-op).
 *
 * It compares the input and the output independently of how the output was built:
 *
 * 1. **Structure** — the output is parsed again and its protected regions (code,
 *    HTML, math, link syntax, front matter, escapes, character references, hard
 *    breaks, and the Markdown markup itself: list/quote/heading marks, table pipes,
 *    emphasis delimiters) must be the input's, byte for byte, in the same order and
 *    the same number. A rule that created or destroyed markup — turned text into an
 *    emphasis, a link, math or a code span, or broke a table — fails here, and so
 *    would any bug that let a rule reach protected bytes.
 * 2. **Content** — with the regions equal, the text between region i-1 and region i
 *    of the input corresponds to the same gap of the output, and each changed gap's
 *    letters must survive: both sides are NFKC-folded (which maps fullwidth `Ａ１` to
 *    `A1`, the one conversion that touches letters) and stripped of whitespace and
 *    punctuation (what the rules legitimately change: spacing, `,`→`，`, `--`→`——`,
 *    `"`→`“`, `...`), and the remainders must be equal. Letters, digits, ideographs,
 *    kana, Hangul and symbols (`$`, `%`, emoji) all count, and as a sequence, so a
 *    dropped, added, reordered or moved character fails.
 */
import { contentSkeleton, sameLetters } from './content-skeleton.js';
import { findProtectedRegions, type RegionOptions } from './protected-regions.js';
import type { ProtectedRegion } from './region-types.js';

export const CJK_INTEGRITY_MESSAGE = 'cjk-format refused: the result did not match the input';

/**
 * What diverged. Counts and offsets only — never the document's text, which may end up
 * in a log a user attaches to a bug report.
 */
export interface IntegrityFailure {
  check: 'structure' | 'content';
  /** Structure: the number of regions; content: the letters of the differing gap. */
  before: number;
  after: number;
  /** Structure: the first region that differs; content: the first gap that differs. */
  firstDifference: number;
}

export class CjkIntegrityError extends Error {
  override readonly name = 'CjkIntegrityError';

  constructor(readonly failure: IntegrityFailure) {
    super(CJK_INTEGRITY_MESSAGE);
  }
}

/** The texts of the protected regions of `content`, in order. */
export function protectedTexts(
  content: string,
  options: RegionOptions = {},
  regions: readonly ProtectedRegion[] = findProtectedRegions(content, options),
): string[] {
  return regions.map((region) => content.slice(region.from, region.to));
}

/** The n+1 texts around n regions: before the first, between each two, after the last. */
function gaps(content: string, regions: readonly ProtectedRegion[]): string[] {
  const texts: string[] = [];
  let cursor = 0;
  for (const region of regions) {
    texts.push(content.slice(cursor, region.from));
    cursor = region.to;
  }
  texts.push(content.slice(cursor));
  return texts;
}

/**
 * Null when `after` is a faithful formatting of `before`, else what diverged.
 * `beforeRegions` saves re-parsing the input when the caller already has its regions.
 */
export function checkIntegrity(
  before: string,
  after: string,
  options: RegionOptions = {},
  beforeRegions: readonly ProtectedRegion[] = findProtectedRegions(before, options),
): IntegrityFailure | null {
  const afterRegions = findProtectedRegions(after, options);
  const expected = protectedTexts(before, options, beforeRegions);
  const actual = protectedTexts(after, options, afterRegions);
  const structure = firstDifference(expected, actual);
  if (structure !== -1) {
    return { check: 'structure', before: expected.length, after: actual.length, firstDifference: structure };
  }
  const beforeGaps = gaps(before, beforeRegions);
  const afterGaps = gaps(after, afterRegions);
  for (let index = 0; index < beforeGaps.length; index++) {
    const was = beforeGaps[index] ?? '';
    const is = afterGaps[index] ?? '';
    if (was === is) continue;
    if (!sameLetters(was, is)) {
      const wasLetters = contentSkeleton(was);
      const isLetters = contentSkeleton(is);
      return { check: 'content', before: wasLetters.length, after: isLetters.length, firstDifference: index };
    }
  }
  return null;
}

/**
 * The same two checks without parsing the output, for `cjk-format`'s own result:
 * `regionStarts` (the chunk map of the rewrite, `rewriteMapped`) says where each input
 * region was copied to, and each must be found there byte for byte, in order and not
 * overlapping, with the text between them holding the input's letters. This refuses every
 * change to a protected region and every lost, added or moved letter, at the cost of a
 * comparison instead of a second Markdown parse. It does not look for markup the rules
 * might have created in the prose (`a _ b _` → `a _b_`): the rules keep whitespace next
 * to Markdown's sticky characters for that (`STICKY`), and the property tests hold them
 * to the re-parsing `checkIntegrity` on random documents (ADR 51).
 */
export function checkMappedIntegrity(
  before: string,
  after: string,
  regions: readonly ProtectedRegion[],
  regionStarts: ArrayLike<number>,
): IntegrityFailure | null {
  if (regionStarts.length !== regions.length) {
    return { check: 'structure', before: regions.length, after: regionStarts.length, firstDifference: 0 };
  }
  let beforeCursor = 0;
  let afterCursor = 0;
  for (let index = 0; index <= regions.length; index++) {
    const region = regions[index];
    const at = region ? regionStarts[index]! : after.length;
    const end = region ? at + region.to - region.from : after.length;
    if (
      at < afterCursor ||
      end > after.length ||
      (region && !sameRange(before, region.from, after, at, end))
    ) {
      return { check: 'structure', before: regions.length, after: regions.length, firstDifference: index };
    }
    const was = before.slice(beforeCursor, region ? region.from : before.length);
    const is = after.slice(afterCursor, at);
    if (was !== is && !sameLetters(was, is)) {
      return {
        check: 'content',
        before: contentSkeleton(was).length,
        after: contentSkeleton(is).length,
        firstDifference: index,
      };
    }
    if (region) beforeCursor = region.to;
    afterCursor = end;
  }
  return null;
}

/** Whether `after[at, end)` holds the same code units as `before` from `from`. */
function sameRange(before: string, from: number, after: string, at: number, end: number): boolean {
  for (let offset = 0; at + offset < end; offset++) {
    if (before.charCodeAt(from + offset) !== after.charCodeAt(at + offset)) return false;
  }
  return true;
}

/** Throws `CjkIntegrityError` when `checkMappedIntegrity` finds a divergence. */
export function assertMappedIntegrity(
  before: string,
  after: string,
  regions: readonly ProtectedRegion[],
  regionStarts: ArrayLike<number>,
): void {
  const failure = checkMappedIntegrity(before, after, regions, regionStarts);
  if (failure) throw new CjkIntegrityError(failure);
}

/** Throws `CjkIntegrityError` when `checkIntegrity` finds a divergence. */
export function assertIntegrity(
  before: string,
  after: string,
  options: RegionOptions = {},
  beforeRegions: readonly ProtectedRegion[] = findProtectedRegions(before, options),
): void {
  const failure = checkIntegrity(before, after, options, beforeRegions);
  if (failure) throw new CjkIntegrityError(failure);
}

function firstDifference<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) if (a[index] !== b[index]) return index;
  return a.length === b.length ? -1 : length;
}
