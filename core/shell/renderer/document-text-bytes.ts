/**
 * A document's text from the UTF-8 the host serves (ADR 100). The host sends exactly its text's
 * bytes (a file's byte order mark was left out when it was read), so a leading U+FEFF here is a
 * character of the text, put there by a writer: dropping it, as `Response.text()` does, would
 * leave the page one character short of the host and every position after it off by one.
 */
export function documentTextOf(bytes: ArrayBuffer): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}
