/*
 * The status bar's counts (ADR 72), as Typora and Obsidian count: a word is a run of letters or
 * digits (apostrophes inside it included: "don't" is one), except that every Chinese character,
 * kana and other ideograph is a word of its own; Hangul is written with spaces, so its runs are
 * words as Latin ones are. Characters are every character but white space (a CJK writer's count),
 * code points, so an astral character (𠀋, an emoji) is one. Counted on the Markdown as it is:
 * marks are punctuation and make no words, but are characters.
 */

import type { Text } from '@codemirror/state';

export interface TextCount {
  readonly words: number;
  readonly characters: number;
}

const IDEOGRAPHIC = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3005\u3007\u30FC`;
const WORD = new RegExp(
  String.raw`[${IDEOGRAPHIC}]|(?:(?![${IDEOGRAPHIC}])[\p{L}\p{N}\p{M}])+(?:['’](?:(?![${IDEOGRAPHIC}])[\p{L}\p{N}\p{M}])+)*`,
  'gu',
);
const SPACE = /\s/gu;
const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

export function countText(text: string): TextCount {
  let words = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text) !== null) words += 1;
  const spaces = text.match(SPACE)?.length ?? 0;
  const pairs = text.match(SURROGATE_PAIR)?.length ?? 0;
  return { words, characters: text.length - spaces - pairs };
}

/**
 * Counts of a document's parts: a CodeMirror `Text` shares every part a change left alone with the
 * text before it, so a change to a large note counts again only the few parts it made (ADR 85).
 */
const partCounts = new WeakMap<Text, TextCount>();

/**
 * `countText` of the whole document, counted part by part: its leaves end at line breaks, which
 * are white space and end every word, so the sums are the counts of the joined text.
 */
export function countDocument(doc: Text): TextCount {
  const known = partCounts.get(doc);
  if (known !== undefined) return known;
  let count: TextCount;
  if (doc.children === null) {
    count = countText(doc.toString());
  } else {
    let words = 0;
    let characters = 0;
    for (const child of doc.children) {
      const part = countDocument(child);
      words += part.words;
      characters += part.characters;
    }
    count = { words, characters };
  }
  partCounts.set(doc, count);
  return count;
}

/** "1,234 words · 5,678 characters", the numbers in the page's locale. */
export function countLabel(count: TextCount, selected: boolean): string {
  const n = (value: number, one: string, many: string) =>
    `${value.toLocaleString()} ${value === 1 ? one : many}`;
  const words = `${n(count.words, 'word', 'words')} · ${n(count.characters, 'character', 'characters')}`;
  return selected ? `${words} selected` : words;
}
