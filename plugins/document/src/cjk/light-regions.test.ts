/**
 * The light scanner against @lezer/markdown (ADR 58): on every document it accepts, it
 * protects exactly the positions the full parse protects apart from the Markdown
 * punctuation no narrow rewrite can touch, and both narrow transforms give the same
 * bytes with either region set; on the corpus too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanLightMarkdown } from './light-regions.js';
import { scanMarkdown } from './markdown-regions.js';
import { applyTransform } from './apply-transform.js';
import { cjkPunctuation, cjkSpacing, HALF_TO_FULL, rewriteOutside } from './narrow-transforms.js';
import { findProtectedRegions } from './protected-regions.js';
import type { ProtectedRegion } from './region-types.js';
import { rewriteSegments } from './segments.js';

/** The kinds the full parse reports that the light scanner leaves out on purpose. */
const NEUTRAL_KINDS = new Set(['markup', 'hard-break']);

function mask(length: number, regions: readonly ProtectedRegion[]): string {
  const bits = new Uint8Array(length);
  for (const region of regions) bits.fill(1, region.from, region.to);
  return bits.join('');
}

/** Where the two scans disagree, as readable `[position, char]` pairs (empty when they agree). */
function differences(text: string): [number, string][] {
  const light = scanLightMarkdown(text);
  if (!light) return [];
  const full = scanMarkdown(text).regions.filter((region) => !NEUTRAL_KINDS.has(region.kind));
  const a = mask(text.length, light);
  const b = mask(text.length, full);
  const out: [number, string][] = [];
  for (let index = 0; index < text.length; index++)
    if (a[index] !== b[index]) out.push([index, text[index]!]);
  return out;
}

/**
 * With `marks`, the scanner must find exactly the full scan's regions (ADR 84): null when
 * it leaves the document to the full parse, else the two region lists, sorted.
 */
function withMarks(text: string): { light: string[]; full: string[] } | null {
  const light = scanLightMarkdown(text, 0, true);
  if (!light) return null;
  const show = (regions: readonly ProtectedRegion[]) =>
    regions
      .map((region) => ({ ...region, text: text.slice(region.from, region.to) }))
      .sort((a, b) => a.from - b.from || a.to - b.to)
      .map(
        (region) =>
          `${region.from}-${region.to} ${region.kind} ${region.inline} ${JSON.stringify(region.text)}`,
      );
  return { light: show(light), full: show(scanMarkdown(text).regions) };
}

function expectSameRegionsWithMarks(text: string): boolean {
  const scans = withMarks(text);
  if (scans) expect(scans.light, text).toEqual(scans.full);
  return scans !== null;
}

const NARROW_KINDS = ['cjk-spacing', 'cjk-punctuation'] as const;

/** The narrow rewrites as they were made before ADR 58: full parse, a replace per segment. */
const earlierOutputs = (text: string) => {
  const regions = findProtectedRegions(text);
  return [cjkSpacing, cjkPunctuation].map((rewrite) =>
    rewriteSegments(text, regions, (segment) => rewrite(segment.text)),
  );
};

/** What `applyTransform` gives now, and the one-scan rewrite over the full parse's regions. */
const currentOutputs = (text: string) => NARROW_KINDS.map((kind) => applyTransform(kind, text));
const oneScanOutputs = (text: string) => {
  const regions = findProtectedRegions(text);
  return NARROW_KINDS.map((kind) => rewriteOutside(kind, text, regions));
};

function expectSameNarrowOutputs(text: string): void {
  const earlier = earlierOutputs(text);
  expect(currentOutputs(text), text).toEqual(earlier);
  expect(oneScanOutputs(text), text).toEqual(earlier);
}

describe('scanLightMarkdown', () => {
  it('scans a document of headings, lists, quotes, fences, code spans and links', () => {
    const doc = [
      '## 第1章 Chapter1: 概述',
      '',
      '使用`npm install 3`安装,详见[文档3](https://example.com/guide/1 "标题,t")。**重点**说明\\,好&amp;的.',
      '第二行,继续`a`',
      '',
      '- 列表项0:最近我在学习TypeScript和React.',
      '- 列表项1:后来换成了Zustand,简单多了!',
      '',
      '```ts',
      'const 标题1 = "中文,code--keep";',
      '```',
      '',
      '> 引用,quote![图](a.png)。',
      '',
    ].join('\n');
    const regions = scanLightMarkdown(doc);
    expect(regions).not.toBeNull();
    expect(regions!.map((region) => doc.slice(region.from, region.to))).toEqual([
      '`npm install 3`',
      '[',
      '](https://example.com/guide/1 "标题,t")',
      '\\,',
      '&amp;',
      '`a`',
      '```ts\nconst 标题1 = "中文,code--keep";\n```',
      '![',
      '](a.png)',
    ]);
    expect(differences(doc)).toEqual([]);
  });

  it.each([
    ['raw HTML', '中文<b>x</b>'],
    ['an autolink', '见<https://a.b>'],
    ['a tab', '中文\tx'],
    ['CRLF', '中文\r\nx'],
    ['a table', '| a | b |\n|---|---|\n| 中 | 文 |'],
    ['a full reference link', '[中文][ref]'],
    ['a footnote', '中文[^1]'],
    ['a reference definition', '[ref]: https://x.y\n\n中文'],
    ['indented code', '    code,中文'],
    ['a nested list', '- a\n  - 中文'],
    ['a fence in a list item', '- ```\n  中,文\n  ```'],
    ['a multi-line quote', '> 中文\n> 继续'],
    ['an empty list item', '-\n中文'],
  ])('leaves %s to the full parse', (_name, doc) => {
    expect(scanLightMarkdown(doc)).toBeNull();
  });

  it('follows @lezer/markdown on code spans, escapes and brackets', () => {
    for (const doc of [
      '``a`b`` 中`x',
      '`a``b` 中',
      '中\\`a` b`',
      '[a [b](c) d](e)中',
      '![a [b](c)](d)中',
      '[a](<b) 中',
      '[a]() 中,文',
      '[ ](x) [](y)中',
      '[a](b "t" ) [c](d e) 中',
      '[a](b(c)d) 中 [e](f\\)g)',
      '[a\n](b\nc) 中',
      '# 标题 [a](b) ##',
      '# `code ##`',
      '中文\n===\n文,字',
      '文&#x4e2d;字&abc中&#12',
      '```\n中,文',
      '~~~ ``\n中\n~~~~\n文,字',
      '段落\n    继续`a`\n1. 中文\n2. 文字',
      '段落\n2. 中文',
    ]) {
      expect(differences(doc), doc).toEqual([]);
      expectSameNarrowOutputs(doc);
    }
  });
});

// Generated documents: lines of CJK and Latin words, the punctuation the narrow
// rewrites convert, and the constructs on both sides of the scanner's subset.
const piece = fc.constantFrom(
  '中文',
  '学习',
  'ひらがな',
  '한국',
  'React',
  'x1',
  '2024',
  ' ',
  ...HALF_TO_FULL.map(([half]) => half),
  '`',
  '``',
  '`code,中`',
  '\\',
  '\\,',
  '\\(',
  '&amp;',
  '&#12;',
  '&x',
  '[',
  ']',
  '](',
  '![',
  '[链接](https://x.com/a,b "标题,t")',
  '(url)',
  '"t"',
  '*',
  '**',
  '***',
  '_',
  '__',
  '~',
  '~~',
  '~~~',
  '  ',
  '\\',
  '“',
  '。',
  '.',
  '(',
  ')',
  '$',
  '$x,y$',
  '#',
  '[[维基,链接]]',
  '<b>',
  '[a][b]',
);
const prefix = fc.constantFrom(
  '',
  '',
  '',
  '',
  '# ',
  '## ',
  '- ',
  '* ',
  '1. ',
  '2. ',
  '> ',
  '```',
  '~~~',
  '    ',
  '  ',
  ' ',
  '---',
  '===',
  '--',
  '-',
  '[a]: /u',
  '|---|',
  '\t',
);
/** A line: a block prefix, then up to `maxLength` pieces. */
const lineOf = (pieces: fc.Arbitrary<string>, minLength: number, maxLength: number) =>
  fc
    .tuple(prefix, fc.array(pieces, { minLength, maxLength }))
    .map(([start, parts]) => start + parts.join(''));
const lineArb = lineOf(piece, 0, 8);
const documentArb = fc
  .array(fc.oneof({ weight: 4, arbitrary: lineArb }, { weight: 1, arbitrary: fc.constant('') }), {
    minLength: 1,
    maxLength: 8,
  })
  .map((lines) => lines.join('\n'));

// Short lines dense in emphasis, strikethrough and link delimiters and their neighbours,
// where the flanking rules, the rule of three and the link precedence decide.
const emphasisPiece = fc.constantFrom(
  '*',
  '**',
  '***',
  '_',
  '__',
  '___',
  '~',
  '~~',
  '~~~',
  'a',
  '中',
  ' ',
  '  ',
  '.',
  '(',
  ')',
  '“',
  '[',
  ']',
  '](u)',
  '![',
  '`',
  '\\',
  '\n',
  '\u00a0',
  '\ud83d\ude00',
);
const emphasisDocumentArb = lineOf(emphasisPiece, 1, 14);

describe('scanLightMarkdown against @lezer/markdown', () => {
  it('protects the same positions and gives the same narrow rewrites', () => {
    let scanned = 0;
    fc.assert(
      fc.property(documentArb, (doc) => {
        if (scanLightMarkdown(doc)) scanned++;
        expect(differences(doc)).toEqual([]);
        expectSameNarrowOutputs(doc);
      }),
      { numRuns: 3000 },
    );
    // The property is not vacuous: a good share of the documents take the light path.
    expect(scanned).toBeGreaterThan(600);
  });

  it('finds, with the marks, exactly the regions of the full scan', () => {
    let scanned = 0;
    fc.assert(
      fc.property(fc.oneof(documentArb, emphasisDocumentArb), (doc) => {
        if (expectSameRegionsWithMarks(doc)) scanned++;
      }),
      { numRuns: 6000 },
    );
    expect(scanned).toBeGreaterThan(1500);
  });

  it('follows @lezer/markdown on emphasis, strikethrough, hard breaks and block marks', () => {
    const docs = [
      '*a _b* c_',
      '_a *b_ c*',
      '**a *b** c*',
      '*a **b* c**',
      '***a***',
      '***a** b*',
      '***a* b**',
      '*a**b*',
      'a**b**c',
      'a__b__c',
      '中**重点**说明',
      '中__重点__说明',
      '**中**文',
      '“**中**”',
      '*(*a*)*',
      '_(_a_)_',
      'x [*a](b*)',
      '*[a*](b)',
      'x [a *b](c) d*',
      '*a [b* c](d)',
      '*a [b*] c*',
      'x [a [b *c] d*](e)',
      '![*a](b*) *c*',
      '~~a~~ ~~~b~~~ ~~c~~~ ~~~~d~~',
      '~~a ~~b~~ c~~',
      '**a ~~b** c~~',
      'a  \nb\\\nc \nd',
      '`a`  \nb',
      'x [a](b)   \nc',
      '**a**  \n**b**',
      '# *a* #',
      '# a #  ',
      '## a ##b',
      '#',
      '# #',
      '### ###',
      '段落\n---',
      '段落\n- - -',
      '段落\n***',
      '段落\n  ===  ',
      '段落\n--',
      '---  ',
      '* * *',
      '> *a*',
      '>',
      '- *a*\n- b\n\n1. c\n2. d',
      '10. a',
      '*a\nb*',
      '_a\n_b',
      '$*a*$ *b*',
      '*\\*a*',
      '&amp;*a*&amp;',
      '**a**\u00a0b',
      '*\u00a0a*',
      '\ud83d\ude00*a*\ud83d\ude00',
    ];
    for (const doc of docs) {
      expect(expectSameRegionsWithMarks(doc), doc).toBe(true);
    }
  });
});

const CORPUS = fileURLToPath(new URL('../../../../../shared/corpora/defuddle/expected/', import.meta.url));
const corpusFiles = existsSync(CORPUS) ? readdirSync(CORPUS).filter((name) => name.endsWith('.md')) : [];

describe('scanLightMarkdown on the corpus', () => {
  it.each(corpusFiles)('%s: same positions and narrow rewrites as the full parse', (name) => {
    const doc = readFileSync(`${CORPUS}${name}`, 'utf8');
    expect(differences(doc)).toEqual([]);
    expectSameNarrowOutputs(doc);
    expectSameRegionsWithMarks(doc);
  });
});
