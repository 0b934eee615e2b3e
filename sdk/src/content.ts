/**
 * A tool result given as MCP content blocks instead of JSON: text and images, passed to the
 * client as they are (`browser_read screenshot` answers a line of text and a JPEG). The host
 * still holds them to the 75,000-byte output bound; an image cannot be cut, so a result over
 * it is refused — keep images small (a bounded size and quality) where they are made.
 */

export type ContentBlock =
  | { readonly type: 'text'; readonly text: string }
  /** `data` is the image, base64-encoded. */
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string };

const CONTENT = Symbol.for('vmark.result.content');

export class ContentResult {
  readonly [CONTENT] = true;

  constructor(readonly content: readonly ContentBlock[]) {}
}

export function isContentResult(value: unknown): value is ContentResult {
  return typeof value === 'object' && value !== null && CONTENT in value;
}
