/** `fullwidthAlphanumeric`: fullwidth letters and digits (`Ａ１`) become ASCII (`A1`). */
const FULLWIDTH_ALPHANUMERIC = /[\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A]/;

/** Whether a UTF-16 unit is a fullwidth digit or letter (U+FF10–FF19, FF21–FF3A, FF41–FF5A). */
const isFullwidthAlphanumeric = (unit: number): boolean =>
  (unit >= 0xff10 && unit <= 0xff19) ||
  (unit >= 0xff21 && unit <= 0xff3a) ||
  (unit >= 0xff41 && unit <= 0xff5a);

export function normalizeFullwidthAlphanumeric(text: string): string {
  // The engine finds the first one (most texts have none); from there a walk appends, with
  // no callback and no one-character string per match (issue 18).
  const first = text.search(FULLWIDTH_ALPHANUMERIC);
  if (first === -1) return text;
  let result = '';
  let cursor = 0;
  for (let index = first; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (!isFullwidthAlphanumeric(unit)) continue;
    result += text.slice(cursor, index) + String.fromCharCode(unit - 0xfee0);
    cursor = index + 1;
  }
  return result + text.slice(cursor);
}
