/**
 * `slashSpacing`: no spaces around a slash between two words (`A / B` → `A/B`).
 * Only between two non-spaces on one line: a slash at a line edge may start a path,
 * and `//` (URLs, comments) is not a separator.
 */
const SPACED_SLASH = /(?<=[^\s/:<])[ \t]*\/[ \t]*(?=[^\s/>])/g;

export function fixSlashSpacing(text: string): string {
  if (!text.includes('/')) return text;
  return text.replace(SPACED_SLASH, '/');
}
