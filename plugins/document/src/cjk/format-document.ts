/**
 * `cjk-format` over a whole document: find the protected regions, run the rule chain
 * over each formattable segment to its fixed point, rebuild the document.
 */
import { findProtectedRegions } from './protected-regions.js';
import type { ProtectedRegion } from './region-types.js';
import { enabledRules, type FormattedSegment, formatSegmentText, type Rule } from './rules/apply-rules.js';
import { rewriteMapped, type SegmentContext } from './segments.js';
import type { CjkFormattingSettings } from './settings.js';

export interface CjkFormatResult {
  text: string;
  /** The input's protected regions (reused by the integrity check). */
  regions: ProtectedRegion[];
  /** Where each of `regions` starts in `text`: the chunk map the integrity check compares by. */
  regionStarts: Int32Array;
  /**
   * Segments whose rule chain had not settled after `MAX_RULE_PASSES` passes: formatted
   * as far as it went, but a second run may change them again. The original logged a
   * warning here; this module does no I/O, so the caller decides.
   */
  unconvergedSegments: number;
}

/** How one segment is formatted: `formatSegmentText`, or the reference chain in its tests. */
export type SegmentFormatter = (
  text: string,
  context: SegmentContext,
  settings: CjkFormattingSettings,
  rules: readonly Rule[],
) => FormattedSegment;

export function formatCjkDocument(
  content: string,
  settings: CjkFormattingSettings,
  formatSegment: SegmentFormatter = formatSegmentText,
): CjkFormatResult {
  const regions = findProtectedRegions(content, { skipReferenceSections: settings.skipReferenceSections });
  const rules = enabledRules(settings);
  let unconvergedSegments = 0;
  const { text, regionStarts } = rewriteMapped(content, regions, (segment) => {
    const formatted = formatSegment(segment.text, segment, settings, rules);
    if (!formatted.converged) unconvergedSegments++;
    return formatted.text;
  });
  return { text, regions, regionStarts, unconvergedSegments };
}
