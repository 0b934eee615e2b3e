/**
 * Every tool result is bounded to 75,000 UTF-8 bytes of JSON (about 25,000 tokens
 * at 3 bytes a token). A larger result becomes one envelope whose preview is a
 * fragment that never parses as JSON, so no client mistakes it for the whole.
 */

export const OUTPUT_BOUND_BYTES = 75_000;

export const DEFAULT_RECOVERY =
  'narrow the request — target a specific tabId, or ask for a smaller part of the data.';

export interface TruncationEnvelope {
  readonly truncated: true;
  readonly truncation_note: string;
  readonly bytes_total: number;
  readonly bytes_shown: number;
  readonly preview: string;
}

export type BoundedOutput =
  | { readonly truncated: false; readonly text: string }
  | { readonly truncated: true; readonly text: string; readonly envelope: TruncationEnvelope };

export function boundOutput(
  data: unknown,
  recovery = DEFAULT_RECOVERY,
  bound = OUTPUT_BOUND_BYTES,
): BoundedOutput {
  const text = JSON.stringify(data, null, 2) ?? 'null';
  // A UTF-16 unit is at most 3 UTF-8 bytes (a pair of them 4): a text this short needs no count.
  if (text.length * 3 <= bound) return { truncated: false, text };
  const total = Buffer.byteLength(text, 'utf8');
  if (total <= bound) return { truncated: false, text };

  const bytes = Buffer.from(text, 'utf8');
  const envelopeFor = (preview: string, shown = Buffer.byteLength(preview, 'utf8')): TruncationEnvelope => {
    return {
      truncated: true,
      truncation_note:
        `=== [VMark MCP] OUTPUT TRUNCATED === The payload is ${total} UTF-8 bytes, over the ${bound}-byte bound ` +
        `(~${Math.round(bound / 3)} tokens at ~3 bytes/token). \`preview\` holds the first ${shown} bytes, ` +
        'cut on a character boundary; it is a FRAGMENT and WILL NOT PARSE as JSON. ' +
        'DO NOT RETRY THIS CALL UNCHANGED — it truncates at the same point. ' +
        `To get the rest: ${recovery}`,
      bytes_total: total,
      bytes_shown: shown,
      preview,
    };
  };
  // Everything but the preview, sized with the largest count it can show (`total`); `- 2` for its quotes.
  const overhead = Buffer.byteLength(JSON.stringify(envelopeFor('', total), null, 2), 'utf8') - 2;
  const escapedBytes = (preview: string) => Buffer.byteLength(JSON.stringify(preview), 'utf8');

  // The preview is escaped inside the envelope, so its share of the bound is found by search.
  let low = 0;
  let high = bound;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (overhead + escapedBytes(previewOf(bytes, mid)) <= bound) low = mid;
    else high = mid - 1;
  }
  let preview = previewOf(bytes, low);
  while (preview.length > 0 && parses(preview)) preview = [...preview].slice(0, -1).join('');
  const envelope = envelopeFor(preview);
  return { truncated: true, text: JSON.stringify(envelope, null, 2), envelope };
}

/** The first `limit` bytes, cut back to a whole code point and without a dangling joiner. */
function previewOf(bytes: Buffer, limit: number): string {
  let end = Math.min(limit, bytes.length);
  // Step back over UTF-8 continuation bytes (10xxxxxx) so no code point is split.
  while (end > 0 && end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes
    .subarray(0, end)
    .toString('utf8')
    .replace(/\u200d+$/u, '');
}
function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The size of a result given as content blocks, as the client receives them; null when it
 * fits the bound. Unlike JSON such a result is not cut: an image in pieces is no image.
 */
export function contentOverBound(content: readonly unknown[], bound = OUTPUT_BOUND_BYTES): number | null {
  const total = Buffer.byteLength(JSON.stringify(content), 'utf8');
  return total <= bound ? null : total;
}
