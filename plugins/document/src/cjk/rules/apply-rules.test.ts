import { describe, expect, it } from 'vitest';
import { WHOLE_TEXT } from '../segments.js';
import { DEFAULT_CJK_FORMATTING, type CjkFormattingSettings } from '../settings.js';
import { enabledRules, formatSegmentText, MAX_RULE_PASSES, RULES } from './apply-rules.js';

const format = (text: string, overrides: Partial<CjkFormattingSettings> = {}) =>
  formatSegmentText(text, WHOLE_TEXT, { ...DEFAULT_CJK_FORMATTING, ...overrides }).text;

describe('the rule chain', () => {
  it('has one rule per rule setting, in §6 order', () => {
    expect(RULES.map((rule) => rule.setting)).toEqual([
      'ellipsisNormalization',
      'fullwidthAlphanumeric',
      'fullwidthPunctuation',
      'fullwidthBrackets',
      'dashConversion',
      'emdashSpacing',
      'smartQuoteConversion',
      'cjkNestedQuotes',
      'quoteSpacing',
      'singleQuoteSpacing',
      'cjkEnglishSpacing',
      'cjkParenthesisSpacing',
      'fullwidthParentheses',
      'currencySpacing',
      'slashSpacing',
      'consecutivePunctuationLimit',
      'spaceCollapsing',
      'trailingSpaceRemoval',
      'newlineCollapsing',
    ]);
  });

  it('enables rules from the settings', () => {
    expect(enabledRules(DEFAULT_CJK_FORMATTING).map((rule) => rule.setting)).not.toContain(
      'fullwidthBrackets',
    );
    expect(
      enabledRules({ ...DEFAULT_CJK_FORMATTING, consecutivePunctuationLimit: 1 }).map((rule) => rule.setting),
    ).toContain('consecutivePunctuationLimit');
  });

  it('runs the CJK rules only on a segment that contains CJK', () => {
    expect(format('Hello,world (test) A / B  x')).toBe('Hello,world (test) A / B x');
    expect(format('한국어 A / B')).toBe('한국어 A/B');
  });

  it('iterates to a fixed point', () => {
    expect(format('(中(文))')).toBe('（中（文））');
    expect(format('中文(注意)中文')).toBe('中文（注意）中文');
    expect(MAX_RULE_PASSES).toBe(8);
  });

  it('reports a chain that does not settle', () => {
    const restless = formatSegmentText('x', WHOLE_TEXT, DEFAULT_CJK_FORMATTING, [
      { setting: 'spaceCollapsing', cjkOnly: false, apply: (text) => `${text}x` },
    ]);
    expect(restless).toEqual({ text: 'x'.repeat(MAX_RULE_PASSES + 1), converged: false });
  });
});
