import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WHOLE_TEXT } from '../segments.js';
import { DEFAULT_CJK_FORMATTING, type CjkFormattingSettings } from '../settings.js';
import { cannotSee, enabledRules, formatSegmentText, MAX_RULE_PASSES, RULES } from './apply-rules.js';
import { formatSegmentReference } from './reference-chain.js';

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

/** Prose with everything the rules key on, packed densely so the rules meet each other. */
const piece = fc.constantFrom(
  '中',
  '文',
  '𠀀',
  'か',
  '한',
  'A',
  'x',
  '1',
  '0',
  'Ａ',
  '３',
  ' ',
  '  ',
  '\t',
  '\n',
  '\n\n\n',
  '.',
  '...',
  '. . .',
  ',',
  '!',
  '?',
  ';',
  ':',
  '，',
  '。',
  '！',
  '"',
  "'",
  '“',
  '”',
  '‘',
  '’',
  '「',
  '」',
  '(',
  ')',
  '（',
  '）',
  '[',
  ']',
  '--',
  '——',
  '/',
  '$',
  '¥',
  '%',
  '°C',
  '℃',
  '-',
  '+',
  '*',
  '_',
  '`',
  '\\',
  'USD',
  '3.14',
  'v1.2',
  'a.md',
  'example.com',
  'https://x.io/a',
  '12:30',
  '(中(文))',
  '((中)文)',
  '(中(',
  '(文',
  '))',
  '“中',
  'a--中',
);
/** Single characters and short marks only: short texts where any two rules meet often. */
const atom = fc.constantFrom(
  ...[...'中文𠀀Aa1 .,!?;:"\'“”‘’「」()（）-—$¥%°/\\*_`\n。，！３'],
  '...',
  '--',
  '——',
  '  ',
);
/** What each rule acts on, whole: a rule's input and another's output meet by concatenation. */
const fragment = fc.constantFrom(
  '. . .',
  '中...a',
  '...中',
  'a...b',
  '1...9',
  'Ａ３',
  '中,',
  ',中',
  '中.',
  '中:',
  '1.',
  '3.14',
  'a.md',
  '[中文]',
  '中--A',
  'a--b',
  '中 —— 文',
  '——',
  '"中"',
  "'中'",
  '“中”',
  '‘中’',
  '"A"',
  "don't",
  '「中」',
  '「‘中’」',
  'A“',
  '”A',
  '中‘',
  '’中',
  '中A',
  'A中',
  '中$5',
  '5%中',
  '中(',
  ')中',
  '(中)',
  '( 中 )',
  '(中(文))',
  '$ 5',
  '5 %',
  '5USD',
  'A / B',
  '中/文',
  '！！！',
  '。。',
  '中  文',
  '  ',
  ' \n',
  '\n\n\n',
  '$',
  '*',
  '_',
  '`',
  'https://x.io/a,b',
  '12:30',
  'v1.2.3',
  '1,000',
);
const prose = fc.oneof(
  fc.array(fragment, { maxLength: 8 }).map((fragments) => fragments.join('')),
  fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join('')),
  fc.array(atom, { maxLength: 16 }).map((atoms) => atoms.join('')),
);
const context = fc.record({
  afterInline: fc.boolean(),
  beforeInline: fc.boolean(),
  atDocumentStart: fc.boolean(),
  atDocumentEnd: fc.boolean(),
});
const settings = fc
  .record({
    ...Object.fromEntries(
      RULES.filter((rule) => rule.setting !== 'consecutivePunctuationLimit').map((rule) => [
        rule.setting,
        fc.boolean(),
      ]),
    ),
    consecutivePunctuationLimit: fc.constantFrom(0 as const, 1 as const, 2 as const),
    quoteStyle: fc.constantFrom('curly' as const, 'corner' as const, 'guillemets' as const),
    contextualQuotes: fc.boolean(),
    cjkCornerQuotes: fc.boolean(),
  })
  .map((drawn): CjkFormattingSettings => ({ ...DEFAULT_CJK_FORMATTING, ...drawn }));

describe('the chain that skips what it has answered (ADR 65)', () => {
  it('gives the reference chain’s text and convergence', () => {
    fc.assert(
      fc.property(prose, context, settings, (text, where, chosen) => {
        expect(formatSegmentText(text, where, chosen)).toEqual(formatSegmentReference(text, where, chosen));
      }),
      { numRuns: 3000 },
    );
  });

  it('skips only rules that are their own fixed point', () => {
    expect(RULES.filter((rule) => rule.idempotent).length).toBeGreaterThan(0);
    for (const rule of RULES) {
      if (!rule.idempotent) continue;
      fc.assert(
        fc.property(prose, context, settings, (text, where, chosen) => {
          const once = rule.apply(text, where, chosen);
          expect(rule.apply(once, where, chosen), rule.setting).toBe(once);
        }),
        { numRuns: 1000 },
      );
    }
  });

  it('skips a rule only after changes it cannot see', () => {
    const claims = RULES.flatMap((reader) =>
      RULES.filter((writer) => writer !== reader && cannotSee(reader, writer)).map((writer) => ({
        reader,
        writer,
      })),
    );
    expect(claims.length).toBeGreaterThan(0);
    for (const { reader, writer } of claims) {
      fc.assert(
        fc.property(prose, context, settings, (text, where, chosen) => {
          // A text the reader leaves as it is: its own output, run until it settles.
          let settled = text;
          for (let round = 0; round < MAX_RULE_PASSES; round++) {
            const again = reader.apply(settled, where, chosen);
            if (again === settled) break;
            settled = again;
          }
          fc.pre(reader.apply(settled, where, chosen) === settled);
          const changed = writer.apply(settled, where, chosen);
          expect(reader.apply(changed, where, chosen), `${reader.setting} after ${writer.setting}`).toBe(
            changed,
          );
        }),
        { numRuns: 1000 },
      );
    }
  });

  it('re-runs a rule that is not its own fixed point', () => {
    // Each call appends one mark until there are three: not idempotent, so a second pass must run it.
    const grow = (text: string) => (text.length < 3 ? `${text}.` : text);
    const rules = [{ setting: 'spaceCollapsing' as const, cjkOnly: false, apply: grow }];
    expect(formatSegmentText('', WHOLE_TEXT, DEFAULT_CJK_FORMATTING, rules)).toEqual({
      text: '...',
      converged: true,
    });
    expect(formatSegmentReference('', WHOLE_TEXT, DEFAULT_CJK_FORMATTING, rules).text).toBe('...');
  });
});
