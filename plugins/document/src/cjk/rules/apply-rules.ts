/**
 * The `cjk-format` rule chain (design notes §6, `rules/applyRules.ts` of the original),
 * in its order, run over one formattable segment until nothing changes.
 *
 * The order matters and a single pass is not enough: quote conversion produces corner
 * brackets that the punctuation and dash rules key on, fullwidth parentheses are
 * produced after the rules that read them, and `(中(文))` needs a pass per nesting
 * level. Every rule only moves text towards its normal form, so iterating converges;
 * `MAX_RULE_PASSES` is a safety cap, and the caller is told when it was hit.
 *
 * The passes are the reference chain's (`reference-chain.ts`), but a rule is not re-run on
 * a text it has already answered (ADR 65): the rules are pure, so the answer is the same.
 */
import { containsCjk } from '../char-classes.js';
import type { SegmentContext } from '../segments.js';
import type { CjkFormattingSettings } from '../settings.js';
import { convertDashes, fixEmdashSpacing } from './dashes.js';
import { addCjkEnglishSpacing } from './cjk-english-spacing.js';
import { limitConsecutivePunctuation } from './consecutive-punctuation.js';
import { fixCurrencySpacing } from './currency-spacing.js';
import { normalizeEllipsis } from './ellipsis.js';
import { normalizeFullwidthAlphanumeric } from './fullwidth-alphanumeric.js';
import { normalizeFullwidthBrackets } from './fullwidth-brackets.js';
import { normalizeFullwidthPunctuation } from './fullwidth-punctuation.js';
import { convertNestedCornerQuotes } from './nested-quotes.js';
import { collapseNewlines } from './newline-collapsing.js';
import { addCjkParenthesisSpacing, normalizeFullwidthParentheses } from './parentheses.js';
import { fixDoubleQuoteSpacing, fixSingleQuoteSpacing } from './quote-spacing.js';
import { fixSlashSpacing } from './slash-spacing.js';
import { convertSmartQuotes } from './smart-quotes.js';
import { collapseSpaces } from './space-collapsing.js';
import { removeTrailingSpaces } from './trailing-spaces.js';

export const MAX_RULE_PASSES = 8;

/** One rule of the chain: the setting that enables it, and where it applies. */
export interface Rule {
  setting: keyof CjkFormattingSettings;
  /** Runs only on a segment that contains CJK (§6 group 2). */
  cjkOnly: boolean;
  apply(text: string, context: SegmentContext, settings: CjkFormattingSettings): string;
  /**
   * The rule's output is a fixed point of the rule itself (`apply(apply(x)) === apply(x)`):
   * the chain may skip it on the text it just produced. Property-tested per rule.
   */
  idempotent?: true;
}

/** §6's order; a rule runs when its setting is on (a limit above 0 for the punctuation limit). */
export const RULES: readonly Rule[] = [
  { setting: 'ellipsisNormalization', cjkOnly: false, apply: normalizeEllipsis },
  {
    setting: 'fullwidthAlphanumeric',
    cjkOnly: true,
    apply: normalizeFullwidthAlphanumeric,
    idempotent: true,
  },
  { setting: 'fullwidthPunctuation', cjkOnly: true, apply: normalizeFullwidthPunctuation },
  { setting: 'fullwidthBrackets', cjkOnly: true, apply: normalizeFullwidthBrackets },
  { setting: 'dashConversion', cjkOnly: true, apply: convertDashes },
  { setting: 'emdashSpacing', cjkOnly: true, apply: fixEmdashSpacing },
  {
    setting: 'smartQuoteConversion',
    cjkOnly: true,
    apply: (text, _context, settings) => convertSmartQuotes(text, settings),
  },
  { setting: 'cjkNestedQuotes', cjkOnly: true, apply: convertNestedCornerQuotes },
  { setting: 'quoteSpacing', cjkOnly: true, apply: fixDoubleQuoteSpacing },
  { setting: 'singleQuoteSpacing', cjkOnly: true, apply: fixSingleQuoteSpacing },
  { setting: 'cjkEnglishSpacing', cjkOnly: true, apply: addCjkEnglishSpacing, idempotent: true },
  { setting: 'cjkParenthesisSpacing', cjkOnly: true, apply: addCjkParenthesisSpacing },
  { setting: 'fullwidthParentheses', cjkOnly: true, apply: normalizeFullwidthParentheses },
  { setting: 'currencySpacing', cjkOnly: true, apply: fixCurrencySpacing },
  { setting: 'slashSpacing', cjkOnly: true, apply: fixSlashSpacing },
  {
    setting: 'consecutivePunctuationLimit',
    cjkOnly: true,
    apply: (text, _context, settings) =>
      limitConsecutivePunctuation(text, settings.consecutivePunctuationLimit),
  },
  { setting: 'spaceCollapsing', cjkOnly: false, apply: collapseSpaces },
  { setting: 'trailingSpaceRemoval', cjkOnly: false, apply: removeTrailingSpaces },
  { setting: 'newlineCollapsing', cjkOnly: false, apply: collapseNewlines },
];

export interface FormattedSegment {
  text: string;
  /** False when the chain still changed the text on its last allowed pass. */
  converged: boolean;
}

/** The rules enabled by `settings`, in order (computed once per document). */
export function enabledRules(settings: CjkFormattingSettings): readonly Rule[] {
  return RULES.filter((rule) => {
    const value = settings[rule.setting];
    return typeof value === 'number' ? value > 0 : value === true;
  });
}

/**
 * Runs `rules` over one segment to a fixed point (at most `MAX_RULE_PASSES` passes): the
 * same passes, and so the same text and the same `converged`, as `formatSegmentReference`.
 *
 * What is skipped: a rule whose input is the very text it last returned unchanged (a pure
 * function gives the same answer), or, for an idempotent rule, the text it last produced.
 * In the usual segment only the first pass changes anything, and the second pass, which
 * only confirms it, then runs just the rules before the last one that changed the text.
 */
export function formatSegmentText(
  text: string,
  context: SegmentContext,
  settings: CjkFormattingSettings,
  rules: readonly Rule[] = enabledRules(settings),
): FormattedSegment {
  // The gate is decided once, on the segment as it came in: the passes must converge
  // on one chain, and a fullwidth `３` that made the segment "CJK" is gone after one.
  const active = containsCjk(text) ? rules : rules.filter((rule) => !rule.cjkOnly);
  const lastInput: (string | undefined)[] = new Array<string | undefined>(active.length);
  const lastOutput: (string | undefined)[] = new Array<string | undefined>(active.length);
  let current = text;
  for (let pass = 0; pass < MAX_RULE_PASSES; pass++) {
    let next = current;
    for (let index = 0; index < active.length; index++) {
      const rule = active[index]!;
      if (next === lastOutput[index] && (next === lastInput[index] || rule.idempotent)) continue;
      lastInput[index] = next;
      next = rule.apply(next, context, settings);
      lastOutput[index] = next;
    }
    if (next === current) return { text: next, converged: true };
    current = next;
  }
  return { text: current, converged: false };
}
