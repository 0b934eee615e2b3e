/**
 * The `cjk-format` rule chain as it was specified and first written (ADR 13): every
 * enabled rule, in §6 order, pass after pass until a whole pass changes nothing.
 * `formatSegmentText` must give the same bytes and the same convergence (ADR 65); this is
 * the oracle its property tests compare it with, and nothing else calls it.
 */
import { containsCjk } from '../char-classes.js';
import { type CjkFormatResult, formatCjkDocument } from '../format-document.js';
import type { SegmentContext } from '../segments.js';
import type { CjkFormattingSettings } from '../settings.js';
import { enabledRules, type FormattedSegment, MAX_RULE_PASSES, type Rule } from './apply-rules.js';

export function formatSegmentReference(
  text: string,
  context: SegmentContext,
  settings: CjkFormattingSettings,
  rules: readonly Rule[] = enabledRules(settings),
): FormattedSegment {
  const cjk = containsCjk(text);
  let current = text;
  for (let pass = 0; pass < MAX_RULE_PASSES; pass++) {
    let next = current;
    for (const rule of rules) {
      if (!rule.cjkOnly || cjk) next = rule.apply(next, context, settings);
    }
    if (next === current) return { text: next, converged: true };
    current = next;
  }
  return { text: current, converged: false };
}

/** `formatCjkDocument` with the reference chain: the document-level oracle. */
export function formatCjkDocumentReference(
  content: string,
  settings: CjkFormattingSettings,
): CjkFormatResult {
  return formatCjkDocument(content, settings, formatSegmentReference);
}
