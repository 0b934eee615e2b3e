import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, URL-safe: the only thing standing between other local processes and the approvals. */
export function newBearerToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Whether an `Authorization` header carries `Bearer <token>`. Both sides are
 * hashed first so that `timingSafeEqual` compares equal lengths and neither the
 * token nor its length leaks through timing.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (typeof header !== 'string') return false;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) return false;
  return timingSafeEqual(digest(match[1]!), digest(token));
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
