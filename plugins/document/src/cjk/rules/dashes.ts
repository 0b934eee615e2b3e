/**
 * `dashConversion` and `emdashSpacing`.
 *
 * Two or more hyphens between CJK and CJK, or between CJK and a Latin word, are the
 * Chinese dash `——`, set off by one space on each side (`原因--结果` → `原因 —— 结果`).
 * No space goes between the dash and a fullwidth bracket or clause mark, which carry
 * their own spacing (§6 names closing/opening brackets; clause marks `，。` are added
 * here for the same reason). Hyphens inside technical tokens (a URL) are not dashes.
 * Everything is on one line: hyphens at a line edge may be Markdown (a setext
 * underline), and a rule must never join lines.
 */
import { isTechnical } from '../latin-span-scanner.js';
import { CJK_CONTEXT, endsBlockMarker, NO_SPACE_AFTER, NO_SPACE_BEFORE, STICKY } from './patterns.js';

const CJK_CONTEXT_CHAR = new RegExp(`^${CJK_CONTEXT}$`, 'u');
const SIDE = `(${CJK_CONTEXT}|[A-Za-z0-9])`;
const DOUBLE_HYPHEN = new RegExp(`${SIDE}[ \\t]*(-{2,})[ \\t]*(?=${SIDE})`, 'gu');

export function convertDashes(text: string): string {
  if (!text.includes('--')) return text;
  return text.replace(
    DOUBLE_HYPHEN,
    (match: string, left: string, hyphens: string, right: string, offset: number) => {
      // At least one side must be CJK: `a--b` is not Chinese.
      if (!CJK_CONTEXT_CHAR.test(left) && !CJK_CONTEXT_CHAR.test(right)) return match;
      const dashAt = offset + match.indexOf(hyphens);
      if (isTechnical(text, dashAt)) return match;
      return `${left}${spaceAfter(left)}——${spaceBefore(right)}`;
    },
  );
}

/** An existing `——` (two or more U+2014) between two non-spaces, on one line. */
const EM_DASH_RUN = /([^\s—])([ \t]*)(—{2,})([ \t]*)(?=([^\s—]))/g;

/**
 * Next to a sticky character (`*`, `_`, `$`…), and after a line-start `-`, `+`, `#`,
 * `>` or `1.`, the author's spacing is kept: adding or removing a space there can
 * change what the Markdown means (`+——` would become a list item `+ ——`).
 */
export function fixEmdashSpacing(text: string): string {
  if (!text.includes('——')) return text;
  return text.replace(
    EM_DASH_RUN,
    (
      _match,
      left: string,
      leftSpace: string,
      dashes: string,
      rightSpace: string,
      right: string,
      offset: number,
    ) => {
      const keepLeft = STICKY.includes(left) || endsBlockMarker(text, offset);
      const keepRight = STICKY.includes(right);
      return `${left}${keepLeft ? leftSpace : spaceAfter(left)}${dashes}${keepRight ? rightSpace : spaceBefore(right)}`;
    },
  );
}

function spaceAfter(left: string): string {
  return NO_SPACE_AFTER.includes(left) ? '' : ' ';
}

function spaceBefore(right: string): string {
  return NO_SPACE_BEFORE.includes(right) ? '' : ' ';
}
