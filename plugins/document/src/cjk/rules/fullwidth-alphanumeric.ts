/** `fullwidthAlphanumeric`: fullwidth letters and digits (`Ａ１`) become ASCII (`A1`). */
const FULLWIDTH_ALPHANUMERIC = /[\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A]/g;

export function normalizeFullwidthAlphanumeric(text: string): string {
  return text.replace(FULLWIDTH_ALPHANUMERIC, (char) => String.fromCharCode(char.charCodeAt(0) - 0xfee0));
}
