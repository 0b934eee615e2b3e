/** `document.transform`'s pure core: one of the three CJK rewrites over a whole document. */
import { assertMappedIntegrity } from './integrity.js';
import { mayRewrite, rewriteOutside } from './narrow-transforms.js';
import { formatCjkDocument } from './format-document.js';
import { findProtectedRegions } from './protected-regions.js';
import { DEFAULT_CJK_FORMATTING, type CjkFormattingSettings } from './settings.js';
import { INVALID_KIND_MESSAGE, isTransformKind, type TransformKind } from './transform-kind.js';

/**
 * Returns the transformed document — the very input string when nothing changes, so
 * the caller can keep the revision. Only the formattable text between protected
 * regions is rewritten.
 *
 * `settings` applies to `cjk-format` only; the narrow transforms have no options.
 * Throws `CjkIntegrityError` when the `cjk-format` result fails its integrity check,
 * and an `Error` with the seed's message for an unknown kind.
 */
export function applyTransform(
  kind: TransformKind,
  content: string,
  settings: CjkFormattingSettings = DEFAULT_CJK_FORMATTING,
): string {
  if (!isTransformKind(kind)) throw new Error(INVALID_KIND_MESSAGE);
  if (kind === 'cjk-format') {
    const { text, regions, regionStarts } = formatCjkDocument(content, settings);
    if (text === content) return content;
    assertMappedIntegrity(content, text, regions, regionStarts);
    return text;
  }
  // A segment's change is a match of the rewrite inside it, and so a match in the whole
  // text: a text the rewrite leaves alone needs no parse (most Latin-only documents).
  if (!mayRewrite(kind, content)) return content;
  return rewriteOutside(kind, content, findProtectedRegions(content, { narrow: true }));
}
