/**
 * Canonical text form (format 0, spec §3.1): decode UTF-8 (invalid ⇒ binary), NFC, line
 * endings to LF, nothing else. Trailing whitespace, the final newline and indentation are
 * content. Hashes and snapshots are computed over this form, so it must agree byte for
 * byte with the original implementation.
 *
 * UTF-8 byte order mark: KEPT as U+FEFF. The original decodes with Rust's
 * `str::from_utf8`, which does not strip it, and NFC leaves it alone; stripping it here
 * would give BOM files a different content hash from the one the other implementation
 * records. (A consequence, same as the original: front matter preceded by a BOM is not
 * recognised, see `identity-lines.ts`.)
 */

export type Canonical = { kind: 'text'; text: string } | { kind: 'binary' };

// `fatal` makes invalid UTF-8 an exception instead of U+FFFD; `ignoreBOM` keeps the BOM
// in the output (the WHATWG decoder strips it by default).
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function canonicalize(bytes: Uint8Array): Canonical {
  let decoded: string;
  try {
    decoded = decoder.decode(bytes);
  } catch {
    return { kind: 'binary' };
  }
  return { kind: 'text', text: canonicalizeString(decoded) };
}

/**
 * NFC, then CRLF and lone CR to LF. For text already decoded (editor buffers). The order
 * does not matter (CR and LF take part in no composition) but mirrors the original.
 */
export function canonicalizeString(text: string): string {
  return text.normalize('NFC').replace(/\r\n?/g, '\n');
}
