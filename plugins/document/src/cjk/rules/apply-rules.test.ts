import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SegmentContext, WHOLE_TEXT } from '../segments.js';
import { DEFAULT_CJK_FORMATTING, type CjkFormattingSettings } from '../settings.js';
import {
  cannotSee,
  enabledRules,
  formatSegmentText,
  MAX_RULE_PASSES,
  type Rule,
  type RuleName,
  RULES,
} from './apply-rules.js';
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
const ATOMS = [...[...'中文𠀀Aa1 .,!?;:"\'“”‘’「」()（）-—$¥%°/\\*_`\n。，！３'], '...', '--', '——', '  '];
const atom = fc.constantFrom(...ATOMS);
/** What each rule acts on, whole: a rule's input and another's output meet by concatenation. */
const FRAGMENTS = [
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
];
const fragment = fc.constantFrom(...FRAGMENTS);
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

/** Every (reader, writer) pair the chain skips on. */
const claims = RULES.flatMap((reader) =>
  RULES.filter((writer) => writer !== reader && cannotSee(reader, writer)).map((writer) => ({
    reader,
    writer,
  })),
);

/**
 * The pieces whose joins the claims are checked on, all of them: the atoms, and every prefix
 * and suffix of every fragment, so that the edge of one rule's input (`中:`) meets the inside
 * of another's (` / B`). Random joins of more pieces (above) meet such a pair too rarely.
 */
const PIECES = [
  ...new Set([
    ...ATOMS,
    '¥',
    'USD',
    '℃',
    '：',
    ...FRAGMENTS.flatMap((whole) => {
      const units = [...whole];
      return units.flatMap((_unit, cut) => [units.slice(0, cut + 1).join(''), units.slice(cut).join('')]);
    }),
  ]),
];
/** Every rule on, corner quotes included, with the segment's edges next to inline constructs. */
const ALL_ON: CjkFormattingSettings = {
  ...DEFAULT_CJK_FORMATTING,
  fullwidthBrackets: true,
  cjkNestedQuotes: true,
  cjkCornerQuotes: true,
  newlineCollapsing: true,
  consecutivePunctuationLimit: 1,
};
const INSIDE: SegmentContext = {
  afterInline: true,
  beforeInline: true,
  atDocumentStart: false,
  atDocumentEnd: false,
};

function claimsByReader(): Map<Rule, Rule[]> {
  const byReader = new Map<Rule, Rule[]>();
  for (const { reader, writer } of claims) byReader.set(reader, [...(byReader.get(reader) ?? []), writer]);
  return byReader;
}

/** The first join of two pieces on which `reader`, settled, sees a change of one of `writers`. */
function firstBrokenClaim(reader: Rule, writers: readonly Rule[]): { writer: Rule; text: string } | null {
  const apply = (rule: Rule, text: string) => rule.apply(text, INSIDE, ALL_ON);
  for (const left of PIECES) {
    for (const right of PIECES) {
      let settled = left + right;
      for (let round = 0; round < MAX_RULE_PASSES; round++) {
        const again = apply(reader, settled);
        if (again === settled) break;
        settled = again;
      }
      if (apply(reader, settled) !== settled) continue;
      for (const writer of writers) {
        const changed = apply(writer, settled);
        if (changed !== settled && apply(reader, changed) !== changed) return { writer, text: settled };
      }
    }
  }
  return null;
}

/** `reader` leaves a text it has settled as it is after `writer` changed it. */
function claimProperty(reader: Rule, writer: Rule, texts: fc.Arbitrary<string>) {
  return fc.property(texts, context, settings, (text, where, chosen) => {
    // A text the reader leaves as it is: its own output, run until it settles.
    let settled = text;
    for (let round = 0; round < MAX_RULE_PASSES; round++) {
      const again = reader.apply(settled, where, chosen);
      if (again === settled) break;
      settled = again;
    }
    fc.pre(reader.apply(settled, where, chosen) === settled);
    const changed = writer.apply(settled, where, chosen);
    expect(reader.apply(changed, where, chosen), `${reader.setting} after ${writer.setting}`).toBe(changed);
  });
}

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
    expect(claims.length).toBeGreaterThan(0);
    for (const { reader, writer } of claims) {
      fc.assert(claimProperty(reader, writer, prose), { numRuns: 1000 });
    }
  });

  it('holds every claim on every join of two pieces, where a writer’s change meets what a reader reads (ADR 90)', () => {
    for (const [reader, writers] of claimsByReader()) {
      const failure = firstBrokenClaim(reader, writers);
      expect(failure, `${reader.setting} after ${failure?.writer.setting}: ${failure?.text}`).toBeNull();
    }
  });

  it('skips only rules that are their own fixed point, on every join of two pieces', () => {
    for (const rule of RULES.filter((each) => each.idempotent)) {
      for (const left of PIECES) {
        for (const right of PIECES) {
          const once = rule.apply(left + right, INSIDE, ALL_ON);
          if (rule.apply(once, INSIDE, ALL_ON) !== once) expect.fail(`${rule.setting}: ${left + right}`);
        }
      }
    }
  });

  it('finds a false claim on the joins of two pieces', () => {
    // Each of these is wrong: `中: / B` (`：` is not kept from a slash) and `中 —— .中` (`。` takes no space).
    const falseClaims: [RuleName, RuleName][] = [
      ['slashSpacing', 'fullwidthPunctuation'],
      ['emdashSpacing', 'fullwidthPunctuation'],
    ];
    for (const [readerName, writerName] of falseClaims) {
      const reader = RULES.find((rule) => rule.setting === readerName)!;
      const writer = RULES.find((rule) => rule.setting === writerName)!;
      expect(cannotSee(reader, writer)).toBe(false);
      expect(firstBrokenClaim(reader, [writer]), `${readerName} after ${writerName}`).not.toBeNull();
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
