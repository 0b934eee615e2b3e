/**
 * RFC 9562 UUIDv7: object ids (`vmark.id`), writer ids and ledger entry ids / idem keys
 * (format 0, spec §2.1, §2.2, §5.1). Time-ordered so that ids minted by one writer sort by
 * creation, which the ledger's (time, id) total order relies on.
 *
 * Layout: 48-bit big-endian Unix milliseconds, version nibble 7, 12 bits `rand_a`, variant
 * bits `10`, 62 bits `rand_b`. We treat `rand_a ‖ rand_b` as one 74-bit number so that
 * monotonicity within a millisecond is a plain increment (RFC 9562 §6.2, method 2).
 */
import { randomBytes as nodeRandomBytes } from 'node:crypto';

/** The nil UUID; also the id of the implicit default context (spec §6). */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** Source of random bytes; injectable so tests can pin the output. */
export type RandomSource = (size: number) => Uint8Array;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUIDV7_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

const RAND_BITS = 74n;
const RAND_MAX = (1n << RAND_BITS) - 1n;
const RAND_B_BITS = 62n;
const MAX_MS = 2 ** 48 - 1;

/**
 * Any hyphenated 8-4-4-4-12 UUID, any version, either case. Readers accept upper case
 * because hand-edited front matter may carry it; writers always emit lower case.
 */
export function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}

/** A hyphenated UUID whose version nibble is 7 and variant bits are `10`. */
export function isUuidV7(s: string): boolean {
  return UUIDV7_RE.test(s);
}

/** Milliseconds since the Unix epoch carried in a UUIDv7. Throws for anything else. */
export function uuidv7Time(s: string): number {
  if (!isUuidV7(s)) throw new RangeError(`not a UUIDv7: ${JSON.stringify(s)}`);
  return Number.parseInt(s.slice(0, 8) + s.slice(9, 13), 16);
}

export interface Uuidv7Generator {
  (now?: number, random?: RandomSource): string;
}

/**
 * A generator with its own monotonic state. Independent generators are for tests (and for
 * anything that must not share a sequence); production code uses the module-level `uuidv7`.
 */
export function createUuidv7Generator(): Uuidv7Generator {
  let lastMs = -1;
  let lastRand = 0n;
  return (now: number = Date.now(), random: RandomSource = nodeRandomBytes): string => {
    if (!Number.isFinite(now) || now < 0 || now > MAX_MS) {
      throw new RangeError(`timestamp out of UUIDv7 range: ${now}`);
    }
    let ms = Math.floor(now);
    let rand: bigint;
    if (ms <= lastMs) {
      // Same millisecond, or the clock stepped back: stay on the last timestamp and count
      // up, so ids from this process never sort before ones already handed out.
      ms = lastMs;
      rand = lastRand + 1n;
      if (rand > RAND_MAX) {
        // 2^74 ids in one millisecond cannot happen in practice; borrow the next ms anyway
        // rather than wrap, which would break ordering.
        ms = lastMs + 1;
        rand = freshRandom(random);
      }
    } else {
      rand = freshRandom(random);
    }
    lastMs = ms;
    lastRand = rand;
    return format(ms, rand);
  };
}

function freshRandom(random: RandomSource): bigint {
  const bytes = random(10);
  if (bytes.length < 10) throw new RangeError('random source returned fewer than 10 bytes');
  let n = 0n;
  for (let i = 0; i < 10; i++) n = (n << 8n) | BigInt(bytes[i] ?? 0);
  // 80 random bits, keep 74. Clearing the top bit of the 74 halves the chance that the
  // in-millisecond counter ever overflows.
  return (n & RAND_MAX) >> 1n;
}

function format(ms: number, rand: bigint): string {
  const randA = Number(rand >> RAND_B_BITS); // 12 bits
  const randB = rand & ((1n << RAND_B_BITS) - 1n); // 62 bits
  const timeHex = ms.toString(16).padStart(12, '0');
  const verHex = (0x7000 | randA).toString(16);
  const varHex = (0x8000n | (randB >> 48n)).toString(16);
  const tailHex = (randB & ((1n << 48n) - 1n)).toString(16).padStart(12, '0');
  return `${timeHex.slice(0, 8)}-${timeHex.slice(8)}-${verHex}-${varHex}-${tailHex}`;
}

/** Mint a UUIDv7; monotonic across calls within this process. */
export const uuidv7: Uuidv7Generator = createUuidv7Generator();
