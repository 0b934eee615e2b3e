import { randomDraw } from '../vault/random-draws.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * `rev-` + 8 random alphanumerics. Random rather than counted so that A→B→A
 * never brings an old token back to life.
 */
export function newRevision(): string {
  let out = 'rev-';
  while (out.length < 12) {
    for (const byte of randomDraw(16)) {
      // 248 = 4 × 62: rejecting the rest keeps every character equally likely.
      if (byte < 248 && out.length < 12) out += ALPHABET[byte % 62];
    }
  }
  return out;
}
