export { NIL_UUID, createUuidv7Generator, isUuid, isUuidV7, uuidv7, uuidv7Time } from './uuidv7.js';
export type { RandomSource, Uuidv7Generator } from './uuidv7.js';
export { canonicalize, canonicalizeString } from './canonical-text.js';
export type { Canonical } from './canonical-text.js';
export {
  assignIdentity,
  frontMatterBody,
  frontMatterHead,
  maskIdentity,
  readIdentity,
} from './identity-lines.js';
export type { IdentityReading } from './identity-lines.js';
export {
  contentHash,
  contentHashOfBytes,
  isContentHash,
  isRevisionId,
  revisionId,
  revisionPreimage,
} from './hashes.js';
