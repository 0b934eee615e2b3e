/** The rewrites `document.transform` offers (seed: `kind` of `document.transform`). */
export const TRANSFORM_KINDS = ['cjk-format', 'cjk-spacing', 'cjk-punctuation'] as const;

export type TransformKind = (typeof TRANSFORM_KINDS)[number];

/** The message the seed's `INTERNAL` envelope carries for an unknown kind. */
export const INVALID_KIND_MESSAGE = `kind must be one of: ${TRANSFORM_KINDS.join(', ')}`;

export function isTransformKind(value: unknown): value is TransformKind {
  return typeof value === 'string' && (TRANSFORM_KINDS as readonly string[]).includes(value);
}
