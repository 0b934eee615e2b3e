/**
 * TeX math, `$…$` inline and `$$…$$` display: not CommonMark, so @lezer/markdown
 * leaves it as text and it is found here.
 *
 * Dollar signs are also prices (`$100`), so inline math follows Pandoc's rule: the
 * opening `$` has a non-space right after it, the closing `$` has a non-space right
 * before it and no digit right after it, and both are on one line. The closer is the
 * FIRST `$` after the opener: `$5 and $10` is then two prices, and `$5 and $x$` is a
 * price followed by math. Display math may span lines but not a blank line, so an
 * unbalanced `$$` cannot swallow the rest of the document.
 */
import type { ProtectedRegion } from './region-types.js';

const BLANK_LINE = /\n[ \t]*\r?\n/g;

export function findMathRegions(text: string, isOpaque: (position: number) => boolean): ProtectedRegion[] {
  const regions: ProtectedRegion[] = [];
  let lineEnd = -1;
  let nextBlank = -1;
  let index = text.indexOf('$');
  while (index !== -1) {
    if (isOpaque(index)) {
      index = text.indexOf('$', index + 1);
      continue;
    }
    if (text.charCodeAt(index + 1) === 0x24 /* $ */) {
      if (nextBlank !== Infinity && nextBlank < index) {
        BLANK_LINE.lastIndex = index;
        const blank = BLANK_LINE.exec(text);
        nextBlank = blank ? blank.index : Infinity;
      }
      let close = text.indexOf('$$', index + 2);
      while (close !== -1 && isOpaque(close)) close = text.indexOf('$$', close + 1);
      if (close !== -1 && close < nextBlank) {
        regions.push({ from: index, to: close + 2, kind: 'math', inline: true });
        index = text.indexOf('$', close + 2);
      } else {
        index = text.indexOf('$', index + 2);
      }
      continue;
    }
    if (lineEnd < index) {
      lineEnd = text.indexOf('\n', index);
      if (lineEnd === -1) lineEnd = text.length;
    }
    const after = text.charAt(index + 1);
    if (after === '' || /\s/.test(after)) {
      index = text.indexOf('$', index + 1);
      continue;
    }
    let close = text.indexOf('$', index + 1);
    while (close !== -1 && close < lineEnd && isOpaque(close)) close = text.indexOf('$', close + 1);
    if (close !== -1 && close < lineEnd && isClosingDollar(text, close)) {
      regions.push({ from: index, to: close + 1, kind: 'math', inline: true });
      index = text.indexOf('$', close + 1);
    } else {
      index = text.indexOf('$', index + 1);
    }
  }
  return regions;
}

function isClosingDollar(text: string, index: number): boolean {
  const before = text.charAt(index - 1);
  const after = text.charAt(index + 1);
  // Fullwidth digits count as digits: `cjk-format` turns `１` into `1`, and the
  // document's math must be the same before and after.
  return !/\s/.test(before) && !/[0-9\uFF10-\uFF19$]/.test(after);
}
