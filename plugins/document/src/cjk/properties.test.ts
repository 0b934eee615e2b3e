/**
 * Properties over generated documents: every transform is idempotent, and leaves the
 * protected regions byte-identical; `cjk-format` never refuses a generated document; the
 * chunk-map integrity check `cjk-format` runs accepts only what the re-parsing check
 * accepts, and refuses any changed byte of a protected region or changed letter; and the
 * chain that skips what it has already answered gives the reference chain's bytes (ADR 65).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyTransform,
  checkIntegrity,
  checkMappedIntegrity,
  DEFAULT_CJK_FORMATTING,
  formatCjkDocument,
  protectedTexts,
  TRANSFORM_KINDS,
} from './index.js';
import { formatCjkDocumentReference } from './rules/reference-chain.js';

// Generators: Markdown documents mixing CJK and Latin prose, punctuation, quotations
// and every construct the transforms must protect.

const CJK_WORDS = [
  '中文',
  '学习',
  '测试内容',
  '日本語',
  'ひらがな',
  'カタカナ',
  '한국어',
  '𠀀字',
  '重点',
  '说',
];
const LATIN_WORDS = ['React', 'hello', 'TypeScript', "don't", "Xiaolai's", 'API', 'a', 'x1', '2024', '100'];
const TECHNICAL = [
  'v1.2.3',
  '3.14',
  '12:30',
  '1,000',
  'example.com',
  'user@example.com',
  'https://example.com/a?b=1,2',
  'Node.js',
];
const PUNCTUATION = [
  ',',
  '.',
  '!',
  '?',
  ';',
  ':',
  '(',
  ')',
  '"',
  "'",
  '--',
  '---',
  '...',
  '. . .',
  '——',
  '/',
  ' / ',
  '$',
  '$ ',
  '%',
  '  ',
  ' ',
  '   ',
  '[',
  ']',
  '「',
  '」',
  '“',
  '”',
  '‘',
  '’',
  '！！！',
  '，',
  '。',
  'Ａ',
  '１',
  '\t',
  '-',
  '+',
  '*',
  '_',
  '~',
];
const INLINE_CONSTRUCTS = [
  '`code, 中文.`',
  '``a`b``',
  '**粗体,text**',
  '*斜体*',
  '~~删除~~',
  '[链接,text](https://x.com/a,b "标题,title")',
  '[中文][ref]',
  '[ref]',
  '![图片,alt](img/a,b.png)',
  '<span class="a,b">',
  '</span>',
  '<!-- 注释,comment -->',
  '$x^2,y$',
  '$$a,b$$',
  '\\,',
  '\\*',
  '&amp;',
  '&#x5176;',
  '<https://auto.link/a,b>',
  '[^1]',
  '[[维基,链接]]',
];

const word = fc.constantFrom(...CJK_WORDS, ...LATIN_WORDS);

/** A quotation: straight or curly quotes around a few words, sometimes with a space inside. */
const quoted = fc
  .tuple(
    fc.constantFrom('"', "'", '“', '‘', '「'),
    fc.array(word, { minLength: 1, maxLength: 3 }),
    fc.constantFrom('', ' '),
  )
  .map(([quote, words, space]) => {
    const close = { '"': '"', "'": "'", '“': '”', '‘': '’', '「': '」' }[quote] ?? quote;
    return `${quote}${words.join(space)}${close}`;
  });

const inlinePiece = fc.oneof(
  { weight: 2, arbitrary: quoted },
  { weight: 4, arbitrary: fc.constantFrom(...CJK_WORDS) },
  { weight: 3, arbitrary: fc.constantFrom(...LATIN_WORDS) },
  { weight: 1, arbitrary: fc.constantFrom(...TECHNICAL) },
  { weight: 4, arbitrary: fc.constantFrom(...PUNCTUATION) },
  { weight: 2, arbitrary: fc.constantFrom(...INLINE_CONSTRUCTS) },
);

const inline = fc.array(inlinePiece, { minLength: 1, maxLength: 14 }).map((pieces) => pieces.join(''));

/** A line of prose that cannot start a block of its own (no leading marker or indentation). */
const line = inline.map((text) => `文${text}`);

const block = fc.oneof(
  { weight: 5, arbitrary: fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n')) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 3 }), line)
      .map(([level, text]) => `${'#'.repeat(level)} ${text}`),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(line, { minLength: 1, maxLength: 3 })
      .map((items) => items.map((item) => `- ${item}`).join('\n')),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(line, { minLength: 1, maxLength: 3 })
      .map((items) => items.map((item, i) => `${i + 1}. ${item}`).join('\n')),
  },
  { weight: 1, arbitrary: line.map((text) => `> ${text}`) },
  { weight: 1, arbitrary: line.map((text) => `- [ ] ${text}`) },
  { weight: 1, arbitrary: inline.map((text) => `\`\`\`js\n${text}\n中文,code--"x"\n\`\`\``) },
  { weight: 1, arbitrary: inline.map((text) => `    ${text}`) },
  {
    weight: 1,
    arbitrary: fc.tuple(line, line).map(([a, b]) => `| ${a} | b |\n| --- | :-: |\n| ${b} | 中文,c |`),
  },
  { weight: 1, arbitrary: inline.map((text) => `<div>\n${text}\n</div>`) },
  { weight: 1, arbitrary: inline.map((text) => `$$\n${text}\n$$`) },
  { weight: 1, arbitrary: fc.constant('[ref]: https://x.com/a,b "标题,title"') },
  { weight: 1, arbitrary: fc.constant('---') },
  { weight: 1, arbitrary: line.map((text) => `${text}  \n第二行`) },
);

const frontMatter = fc.option(
  inline.map((text) => `---\ntitle: ${text.replace(/\n/g, ' ')}\n---\n`),
  { nil: '' },
);

const separator = fc.constantFrom('\n\n', '\n\n\n', '\n', '\r\n\r\n', '\n  \n');

/** A whole document: optional front matter, blocks, and one of several endings. */
const markdownDocument = fc
  .tuple(
    frontMatter,
    fc.array(fc.tuple(block, separator), { minLength: 1, maxLength: 6 }),
    fc.constantFrom('', '\n', '\n\n', '  '),
  )
  .map(
    ([front, blocks, ending]) =>
      front +
      blocks
        .map(([text, sep]) => text + sep)
        .join('')
        .trimEnd() +
      ending,
  );

/** Any settings object the schema accepts, every field drawn. */
const cjkSettings = fc.record({
  ellipsisNormalization: fc.boolean(),
  newlineCollapsing: fc.boolean(),
  fullwidthAlphanumeric: fc.boolean(),
  fullwidthPunctuation: fc.boolean(),
  fullwidthParentheses: fc.boolean(),
  fullwidthBrackets: fc.boolean(),
  cjkEnglishSpacing: fc.boolean(),
  cjkParenthesisSpacing: fc.boolean(),
  currencySpacing: fc.boolean(),
  slashSpacing: fc.boolean(),
  spaceCollapsing: fc.boolean(),
  dashConversion: fc.boolean(),
  emdashSpacing: fc.boolean(),
  smartQuoteConversion: fc.boolean(),
  quoteStyle: fc.constantFrom('curly' as const, 'corner' as const, 'guillemets' as const),
  contextualQuotes: fc.boolean(),
  quoteSpacing: fc.boolean(),
  singleQuoteSpacing: fc.boolean(),
  cjkCornerQuotes: fc.boolean(),
  cjkNestedQuotes: fc.boolean(),
  quoteToggleMode: fc.constantFrom('simple' as const, 'full-cycle' as const),
  consecutivePunctuationLimit: fc.constantFrom(0 as const, 1 as const, 2 as const),
  trailingSpaceRemoval: fc.boolean(),
  skipReferenceSections: fc.boolean(),
});

const RUNS = Number(process.env.CJK_PROPERTY_RUNS ?? 300);

describe.each(TRANSFORM_KINDS)('%s over generated Markdown', (kind) => {
  it('is idempotent', () => {
    fc.assert(
      fc.property(markdownDocument, (input) => {
        const once = applyTransform(kind, input);
        expect(applyTransform(kind, once)).toBe(once);
      }),
      { numRuns: RUNS },
    );
  });

  it('leaves every protected region byte-identical and in order', () => {
    fc.assert(
      fc.property(markdownDocument, (input) => {
        expect(protectedTexts(applyTransform(kind, input))).toEqual(protectedTexts(input));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('cjk-format with any settings', () => {
  it('is idempotent and leaves every protected region byte-identical', () => {
    fc.assert(
      fc.property(markdownDocument, cjkSettings, (input, settings) => {
        const once = applyTransform('cjk-format', input, settings);
        expect(applyTransform('cjk-format', once, settings)).toBe(once);
        const options = { skipReferenceSections: settings.skipReferenceSections };
        expect(protectedTexts(once, options)).toEqual(protectedTexts(input, options));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the chunk-map integrity check of cjk-format', () => {
  it('accepts a result only when re-parsing the output accepts it too', () => {
    fc.assert(
      fc.property(markdownDocument, cjkSettings, (input, settings) => {
        const { text, regions, regionStarts } = formatCjkDocument(input, settings);
        const options = { skipReferenceSections: settings.skipReferenceSections };
        expect(checkMappedIntegrity(input, text, regions, regionStarts)).toBeNull();
        // Independent of the chunk map: the output parses to the same regions, and no markup was created.
        expect(checkIntegrity(input, text, options)).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses any change to a byte of a protected region', () => {
    fc.assert(
      fc.property(markdownDocument, fc.nat(), fc.nat(), (input, pick, offset) => {
        const { text, regions, regionStarts } = formatCjkDocument(input, DEFAULT_CJK_FORMATTING);
        fc.pre(regions.length > 0);
        const index = pick % regions.length;
        const region = regions[index]!;
        const at = regionStarts[index]! + (offset % (region.to - region.from));
        const replaced = text.charCodeAt(at) === 0x78 ? 'y' : 'x';
        const tampered = text.slice(0, at) + replaced + text.slice(at + 1);
        expect(checkMappedIntegrity(input, tampered, regions, regionStarts)).toMatchObject({
          check: 'structure',
          firstDifference: index,
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a lost letter between the regions', () => {
    fc.assert(
      fc.property(markdownDocument, fc.nat(), (input, pick) => {
        const { text, regions, regionStarts } = formatCjkDocument(input, DEFAULT_CJK_FORMATTING);
        const letters = [...text.matchAll(/[\p{L}\p{N}]/gu)].filter(
          ({ index }) =>
            !regions.some(
              (region, i) => index >= regionStarts[i]! && index < regionStarts[i]! + region.to - region.from,
            ),
        );
        fc.pre(letters.length > 0);
        const { index, 0: letter } = letters[pick % letters.length]!;
        const tampered = text.slice(0, index) + text.slice(index + letter.length);
        const shifted = regionStarts.map((start) => (start > index ? start - letter.length : start));
        expect(checkMappedIntegrity(input, tampered, regions, shifted)).toMatchObject({ check: 'content' });
      }),
      { numRuns: RUNS },
    );
  });
});

describe('cjk-format against the reference chain (ADR 65)', () => {
  it('gives the same bytes and the same convergence with any settings', () => {
    fc.assert(
      fc.property(markdownDocument, cjkSettings, (input, settings) => {
        const fast = formatCjkDocument(input, settings);
        const reference = formatCjkDocumentReference(input, settings);
        expect(fast.text).toBe(reference.text);
        expect(fast.unconvergedSegments).toBe(reference.unconvergedSegments);
        expect([...fast.regionStarts]).toEqual([...reference.regionStarts]);
      }),
      { numRuns: RUNS * 3 },
    );
  });
});
