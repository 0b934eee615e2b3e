/**
 * The user's CJK formatting settings: the fields and defaults of the original
 * editor's `DEFAULT_CJK_FORMATTING` (design notes §6), so a settings file written for
 * it means the same thing here.
 */
import { z } from '@vmark/sdk';

/**
 * Target glyphs of smart-quote conversion: curly “” ‘’, corner 「」 『』, or
 * guillemets « » ‹ ›.
 */
export type QuoteStyle = 'curly' | 'corner' | 'guillemets';

/** 0 = off, 1 = `！！！` → `！`, 2 = `！！！` → `！！`. */
export type ConsecutivePunctuationLimit = 0 | 1 | 2;

export interface CjkFormattingSettings {
  // Universal rules
  ellipsisNormalization: boolean;
  newlineCollapsing: boolean;
  // Fullwidth normalization
  fullwidthAlphanumeric: boolean;
  fullwidthPunctuation: boolean;
  fullwidthParentheses: boolean;
  fullwidthBrackets: boolean;
  // Spacing
  cjkEnglishSpacing: boolean;
  cjkParenthesisSpacing: boolean;
  currencySpacing: boolean;
  slashSpacing: boolean;
  spaceCollapsing: boolean;
  // Dashes and quotes
  dashConversion: boolean;
  emdashSpacing: boolean;
  smartQuoteConversion: boolean;
  quoteStyle: QuoteStyle;
  /** Pure-Latin quote pairs keep their straight quotes (curly only where CJK is involved). */
  contextualQuotes: boolean;
  quoteSpacing: boolean;
  singleQuoteSpacing: boolean;
  /** Quote pairs around Chinese text become 「」/『』 whatever `quoteStyle` says. */
  cjkCornerQuotes: boolean;
  /** ‘…’ inside 「…」 becomes 『…』. */
  cjkNestedQuotes: boolean;
  /** How the editor's quote-toggle command cycles; carried for compatibility, no transform reads it. */
  quoteToggleMode: 'simple' | 'full-cycle';
  // Cleanup
  consecutivePunctuationLimit: ConsecutivePunctuationLimit;
  trailingSpaceRemoval: boolean;
  // Sections
  /** Leave "References"/"Further Reading" sections (and their CJK equivalents) untouched. */
  skipReferenceSections: boolean;
}

export const DEFAULT_CJK_FORMATTING: Readonly<CjkFormattingSettings> = Object.freeze({
  ellipsisNormalization: true,
  newlineCollapsing: false,
  fullwidthAlphanumeric: true,
  fullwidthPunctuation: true,
  fullwidthParentheses: true,
  fullwidthBrackets: false,
  cjkEnglishSpacing: true,
  cjkParenthesisSpacing: true,
  currencySpacing: true,
  slashSpacing: true,
  spaceCollapsing: true,
  dashConversion: true,
  emdashSpacing: true,
  smartQuoteConversion: true,
  quoteStyle: 'curly',
  contextualQuotes: true,
  quoteSpacing: true,
  singleQuoteSpacing: true,
  cjkCornerQuotes: false,
  cjkNestedQuotes: false,
  quoteToggleMode: 'simple',
  consecutivePunctuationLimit: 0,
  trailingSpaceRemoval: true,
  skipReferenceSections: false,
});

const D = DEFAULT_CJK_FORMATTING;
// `.catch`: a field edited by hand into something invalid falls back on its own, without
// taking the person's other choices down with it.
const flag = (fallback: boolean) => z.boolean().default(fallback).catch(fallback);

/**
 * Parses a partial (or empty) settings object into full settings: every field is
 * optional and takes its default when absent or invalid. Unknown keys are dropped.
 */
export const cjkFormattingSchema = z.object({
  ellipsisNormalization: flag(D.ellipsisNormalization),
  newlineCollapsing: flag(D.newlineCollapsing),
  fullwidthAlphanumeric: flag(D.fullwidthAlphanumeric),
  fullwidthPunctuation: flag(D.fullwidthPunctuation),
  fullwidthParentheses: flag(D.fullwidthParentheses),
  fullwidthBrackets: flag(D.fullwidthBrackets),
  cjkEnglishSpacing: flag(D.cjkEnglishSpacing),
  cjkParenthesisSpacing: flag(D.cjkParenthesisSpacing),
  currencySpacing: flag(D.currencySpacing),
  slashSpacing: flag(D.slashSpacing),
  spaceCollapsing: flag(D.spaceCollapsing),
  dashConversion: flag(D.dashConversion),
  emdashSpacing: flag(D.emdashSpacing),
  smartQuoteConversion: flag(D.smartQuoteConversion),
  quoteStyle: z.enum(['curly', 'corner', 'guillemets']).default(D.quoteStyle).catch(D.quoteStyle),
  contextualQuotes: flag(D.contextualQuotes),
  quoteSpacing: flag(D.quoteSpacing),
  singleQuoteSpacing: flag(D.singleQuoteSpacing),
  cjkCornerQuotes: flag(D.cjkCornerQuotes),
  cjkNestedQuotes: flag(D.cjkNestedQuotes),
  quoteToggleMode: z.enum(['simple', 'full-cycle']).default(D.quoteToggleMode).catch(D.quoteToggleMode),
  consecutivePunctuationLimit: z
    .union([z.literal(0), z.literal(1), z.literal(2)])
    .default(D.consecutivePunctuationLimit)
    .catch(D.consecutivePunctuationLimit),
  trailingSpaceRemoval: flag(D.trailingSpaceRemoval),
  skipReferenceSections: flag(D.skipReferenceSections),
});

// The schema's output and the interface must not drift apart: each must be assignable
// to the other, or this line stops compiling.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _schemaMatchesInterface: Exact<z.output<typeof cjkFormattingSchema>, CjkFormattingSettings> = true;
