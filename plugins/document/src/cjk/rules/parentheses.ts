/**
 * `cjkParenthesisSpacing` and `fullwidthParentheses` (§6: the spacing rule runs first).
 *
 * Half-width parentheses are Western punctuation and are set off from CJK by a space:
 * `测试(text)` → `测试 (text)`. Parentheses whose content starts with a CJK letter
 * become fullwidth: `(注意)` → `（注意）`. A fullwidth parenthesis carries its own
 * spacing, so the conversion also drops the spaces outside it — including the one the
 * spacing rule has just added (`中文(注意)中文` → `中文（注意）中文`, where running the
 * two rules blindly would leave `中文 （注意） 中文`). Whitespace at a line edge is
 * indentation and stays.
 */
import { isTechnical } from '../latin-span-scanner.js';
import { CJK, STICKY } from './patterns.js';

const CJK_THEN_OPEN = new RegExp(`(${CJK})\\(`, 'gu');
const CLOSE_THEN_CJK = new RegExp(`\\)(${CJK})`, 'gu');

export function addCjkParenthesisSpacing(text: string): string {
  if (!text.includes('(') && !text.includes(')')) return text;
  return text.replace(CJK_THEN_OPEN, '$1 (').replace(CLOSE_THEN_CJK, ') $1');
}

// Spaces just inside the parentheses go too: `( 括号 )` → `（括号）`.
const CJK_PARENTHESIZED = new RegExp(`([ \\t]*)\\([ \\t]*(${CJK}[^()\\n]*?)([ \\t]*)\\)([ \\t]*)`, 'gu');

export function normalizeFullwidthParentheses(text: string): string {
  if (!text.includes('(')) return text;
  return text.replace(
    CJK_PARENTHESIZED,
    (match: string, before: string, inner: string, innerEnd: string, after: string, offset: number) => {
      if (isTechnical(text, offset + before.length)) return match;
      const end = offset + match.length;
      // Spaces stay at a line edge (indentation) and next to a sticky character, where
      // removing them could turn it into markup (`$ （` → `$（` could open math).
      const keepBefore = offset === 0 || `\n${STICKY}`.includes(text.charAt(offset - 1));
      const keepAfter = end === text.length || `\r\n${STICKY}`.includes(text.charAt(end));
      const keepInnerEnd = STICKY.includes(inner.charAt(inner.length - 1));
      return `${keepBefore ? before : ''}（${inner}${keepInnerEnd ? innerEnd : ''}）${keepAfter ? after : ''}`;
    },
  );
}
