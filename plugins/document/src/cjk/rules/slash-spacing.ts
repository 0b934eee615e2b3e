/**
 * `slashSpacing`: no spaces around a slash between two words (`A / B` → `A/B`).
 * Only between two non-spaces on one line: a slash at a line edge may start a path,
 * and `//` (URLs, comments) is not a separator. Never against a sticky character
 * (`$`, `*`, `_`…): removing the space next to one can turn it into markup
 * (`$ / $` → `$/$` is math, `_ / _` → `_/_` is an emphasis).
 */
import { STICKY_CLASS } from './patterns.js';

const SPACED_SLASH = new RegExp(
  `(?<=[^\\s/:<${STICKY_CLASS}])[ \\t]*\\/[ \\t]*(?=[^\\s/>${STICKY_CLASS}])`,
  'g',
);

export function fixSlashSpacing(text: string): string {
  if (!text.includes('/')) return text;
  return text.replace(SPACED_SLASH, '/');
}
