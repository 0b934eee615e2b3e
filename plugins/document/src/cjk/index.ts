/**
 * The CJK transforms of `document.transform` (design notes §6): pure functions over a
 * document's text, no I/O and no host services.
 */
export { applyTransform } from './apply-transform.js';
export { formatCjkDocument, type CjkFormatResult } from './format-document.js';
export {
  assertIntegrity,
  checkIntegrity,
  checkMappedIntegrity,
  CJK_INTEGRITY_MESSAGE,
  CjkIntegrityError,
  protectedTexts,
  type IntegrityFailure,
} from './integrity.js';
export { contentSkeleton } from './content-skeleton.js';
export { cjkPunctuation, cjkSpacing, HALF_TO_FULL } from './narrow-transforms.js';
export { findProtectedRegions, type RegionOptions } from './protected-regions.js';
export type { ProtectedRegion, RegionKind } from './region-types.js';
export { MAX_RULE_PASSES } from './rules/apply-rules.js';
export {
  cjkFormattingSchema,
  DEFAULT_CJK_FORMATTING,
  type CjkFormattingSettings,
  type ConsecutivePunctuationLimit,
  type QuoteStyle,
} from './settings.js';
export {
  INVALID_KIND_MESSAGE,
  isTransformKind,
  TRANSFORM_KINDS,
  type TransformKind,
} from './transform-kind.js';
