import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type ChangedRange, Tree, TreeFragment } from '@lezer/common';
import * as stockModule from '@lezer/markdown';
import type { MarkdownConfig, MarkdownParser } from '@lezer/markdown';
import { Wikilink } from '@vmark/sdk/markdown';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FootnoteSyntax, MathSyntax } from '../plugins/document/ui/live/syntax.js';
import { LongParagraphs } from '../plugins/document/ui/long-paragraphs.js';
import { lezerMarkdownReuse, reuseGrowsWithPosition } from './lezer-markdown-reuse.mjs';

/*
 * The page's Markdown parser with the reuse bound measured where each node is (ADR 109): an
 * incremental parse must give the tree a whole parse gives, whatever the note and the edits, and
 * after an edit near a long note's end it must take the old tree's groups whole.
 */

const require = createRequire(import.meta.url);
/** The ES module the page's bundles take (`require` finds its CommonJS twin in the same folder). */
const DIST = path.join(path.dirname(require.resolve('@lezer/markdown')), 'index.js');

type MarkdownModule = typeof stockModule;

/** The editor page's Markdown (plugins/document/ui/markdown-view.ts: `markdownLanguage` and vmark's own). */
function pageParser(module: MarkdownModule): MarkdownParser {
  const vmark: MarkdownConfig[] = [MathSyntax, FootnoteSyntax, Wikilink, LongParagraphs];
  return module.parser.configure([module.GFM, module.Subscript, module.Superscript, module.Emoji, ...vmark]);
}

const stock = pageParser(stockModule);
let patched: MarkdownParser;
let dir: string;

beforeAll(async () => {
  // The patched module beside a link to the repository's packages, so that it imports the one @lezer/common.
  dir = await mkdtemp(path.join(os.tmpdir(), 'vmark-lezer-markdown-'));
  await symlink(fileURLToPath(new URL('../node_modules', import.meta.url)), path.join(dir, 'node_modules'));
  await writeFile(path.join(dir, 'index.js'), reuseGrowsWithPosition(await readFile(DIST, 'utf8')));
  patched = pageParser((await import(pathToFileURL(path.join(dir, 'index.js')).href)) as MarkdownModule);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every named node with its place, in document order: what a reader of the tree sees. */
function shape(tree: Tree): string[] {
  const nodes: string[] = [];
  tree.iterate({ enter: (node) => void nodes.push(`${node.name} ${node.from}-${node.to}`) });
  return nodes;
}

/** The anonymous groups (the balanced tree's inner nodes) of a tree. */
function groups(tree: Tree, into = new Set<Tree>()): Set<Tree> {
  for (const child of tree.children)
    if (child instanceof Tree) {
      if (child.type.isAnonymous) into.add(child);
      groups(child, into);
    }
  return into;
}

/** Parses `text` after `change`, reusing what `fragments` hold; returns the tree and the next fragments. */
function reparse(
  parser: MarkdownParser,
  text: string,
  fragments: readonly TreeFragment[],
  change: ChangedRange,
) {
  const moved = TreeFragment.applyChanges(fragments, [change]);
  const tree = parser.parse(text, moved);
  return { tree, fragments: TreeFragment.addTree(tree, moved) };
}

const word = fc.constantFrom(
  'alpha',
  'beta',
  'gamma',
  '*em*',
  '`code`',
  '[link](https://x.y)',
  '**b**',
  '中文',
);
const line = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));
const block = fc.oneof(
  line,
  fc.array(line, { minLength: 2, maxLength: 3 }).map((lines) => lines.join('\n')),
  fc.tuple(fc.integer({ min: 1, max: 6 }), line).map(([level, text]) => `${'#'.repeat(level)} ${text}`),
  line.map((text) => `${text}\n===`),
  fc
    .array(fc.tuple(fc.boolean(), line), { minLength: 1, maxLength: 12 })
    .map((items) => items.map(([nested, text]) => `${nested ? '  ' : ''}- ${text}`).join('\n')),
  fc.array(line, { minLength: 1, maxLength: 10 }).map((lines) => lines.map((l) => `> ${l}`).join('\n')),
  line.map((text) => '```js\n' + text + '\n```'),
  // Indented code, which goes on after blank lines: reuse may never stop right after it.
  fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.map((l) => `    ${l}`).join('\n\n')),
  line.map((text) => `| a | b |\n| - | - |\n| ${text} | 2 |`),
  line.map((text) => `<div>\n${text}\n</div>`),
  fc.constantFrom(
    '[ref]: https://example.com',
    '---',
    '* * *',
    '1. one\n2. two',
    '$$\nx^2\n$$',
    '[^1]: note',
    '[[Page]]',
  ),
  // Now and then a paragraph long enough to be cut into pieces (long-paragraphs.ts, ADR 106).
  fc
    .integer({ min: 100, max: 300 })
    .map((lines) => Array.from({ length: lines }, (_, i) => `line ${i} of words`).join('\n')),
);
const note = fc
  .array(fc.tuple(block, fc.constantFrom('\n\n', '\n\n', '\n\n\n', '\n')), { minLength: 10, maxLength: 300 })
  .map((blocks) => blocks.map(([text, gap]) => text + gap).join(''));
const edit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  remove: fc.integer({ min: 0, max: 12 }),
  insert: fc.constantFrom(
    '',
    'x',
    ' ',
    '\n',
    '\n\n',
    '#',
    '- ',
    '> ',
    '```',
    '    ',
    '|',
    '*',
    'word',
    '\n---\n',
  ),
  atEnd: fc.boolean(),
});

describe('the page’s Markdown parser (@lezer/markdown, reuse bound where the node is)', () => {
  it('applies to the installed @lezer/markdown exactly once, and refuses code it was not written for', async () => {
    const source = await readFile(DIST, 'utf8');
    const changed = reuseGrowsWithPosition(source);
    expect(changed).not.toBe(source);
    expect(changed.length).toBeGreaterThan(source.length);
    expect(() => reuseGrowsWithPosition('export const parser = null;')).toThrow(/ADR 109/);
    expect(() => reuseGrowsWithPosition(changed)).toThrow(/ADR 109/);
    expect(lezerMarkdownReuse.transform(source, DIST)?.code).toBe(changed);
    expect(lezerMarkdownReuse.transform(source, '/x/node_modules/@lezer/common/dist/index.js')).toBeNull();
  });

  it('parses after any edits as a whole parse of the same text does, wherever the stock parser does', () => {
    let steps = 0;
    let stockWrong = 0;
    fc.assert(
      fc.property(note, fc.array(edit, { minLength: 1, maxLength: 12 }), (start, edits) => {
        let text = start;
        let mine = { tree: patched.parse(text), fragments: [] as readonly TreeFragment[] };
        let theirs = { tree: stock.parse(text), fragments: [] as readonly TreeFragment[] };
        mine.fragments = TreeFragment.addTree(mine.tree);
        theirs.fragments = TreeFragment.addTree(theirs.tree);
        for (const { at, remove, insert, atEnd } of edits) {
          const from = atEnd ? text.length : Math.floor(at * text.length);
          const to = Math.min(text.length, from + (atEnd ? 0 : remove));
          const change = { fromA: from, toA: to, fromB: from, toB: from + insert.length };
          text = text.slice(0, from) + insert + text.slice(to);
          mine = reparse(patched, text, mine.fragments, change);
          theirs = reparse(stock, text, theirs.fragments, change);
          const whole = shape(stock.parse(text));
          steps++;
          // The stock parser's own incremental parse misses now and then (an indented line's edit
          // at a note's start keeps a code block that is now a list); the bound changes none of that.
          if (JSON.stringify(shape(theirs.tree)) !== JSON.stringify(whole)) {
            stockWrong++;
            continue;
          }
          expect(shape(mine.tree)).toEqual(whole);
        }
      }),
      { numRuns: 150 },
    );
    expect(stockWrong).toBeLessThan(steps / 20);
  });

  it('takes the old tree’s groups whole after an edit near a long note’s end (the stock parser takes none)', () => {
    const text = Array.from({ length: 4000 }, (_, i) => `Paragraph ${i} with *some* words.`).join('\n\n');
    const typed = `${text}x`;
    const change = { fromA: text.length, toA: text.length, fromB: text.length, toB: typed.length };
    const kept = (parser: MarkdownParser) => {
      const before = parser.parse(text);
      const { tree } = reparse(parser, typed, TreeFragment.addTree(before), change);
      const old = groups(before);
      return [...groups(tree)].filter((group) => old.has(group)).length;
    };
    expect(kept(stock)).toBe(0);
    expect(kept(patched)).toBeGreaterThan(0);
  });
});
