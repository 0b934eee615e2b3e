/**
 * Random bytes for what a save names several times over — its temp files, its lock tokens, the
 * document's new revision, the checkpoint's id — drawn from a pool that the same CSPRNG fills a
 * few kilobytes at a time. Each `crypto.randomBytes` call is a job of its own in Node (and a
 * `getpid` in OpenSSL), about 6 µs; a draw from the pool is a copy. No byte is handed out twice.
 */
import { randomBytes, randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
/** Bytes of the pool already handed out; all of them until the first draw fills it. */
let used = POOL_BYTES;

/** Where `length` fresh bytes start in the pool, refilling it first when fewer are left. */
function take(length: number): number {
  if (used + length > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const start = used;
  used += length;
  return start;
}

/** `length` random bytes, a buffer of their own. */
export function randomDraw(length: number): Buffer {
  if (length > POOL_BYTES) return randomBytes(length);
  const start = take(length);
  return Buffer.from(pool.subarray(start, start + length));
}

/** `length` random bytes as lowercase hex (`2 × length` characters). */
export function randomHex(length: number): string {
  if (length > POOL_BYTES) return randomBytes(length).toString('hex');
  const start = take(length);
  return pool.toString('hex', start, start + length);
}
