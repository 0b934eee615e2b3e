/**
 * The two error shapes of the seed:
 * - argument-shape errors are plain strings (`ArgumentError`);
 * - domain errors are structured envelopes `{error: CODE, message, ...}` (`DomainError`).
 */

export const ERROR_CODES = [
  'STALE',
  'INVALID_PATCH',
  'INVALID_TAB',
  'INVALID_PATH',
  'READ_ONLY',
  'NOT_WORKFLOW',
  'NO_EDITOR',
  'APPROVAL_REQUIRED',
  'BUSY',
  'RESOURCE_EXHAUSTED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorEnvelope {
  error: ErrorCode;
  message: string;
  [detail: string]: unknown;
}

// Brands rather than `instanceof`: a user plugin may load its own copy of the SDK.
const DOMAIN = Symbol.for('vmark.error.domain');
const ARGUMENT = Symbol.for('vmark.error.argument');
const REFUSAL = Symbol.for('vmark.error.refusal');
const TOKEN = Symbol.for('vmark.error.token');

export class DomainError extends Error {
  readonly [DOMAIN] = true;
  override readonly name = 'DomainError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }

  toEnvelope(): ErrorEnvelope {
    return { error: this.code, message: this.message, ...this.details };
  }
}

export class ArgumentError extends Error {
  readonly [ARGUMENT] = true;
  override readonly name = 'ArgumentError';
}

/**
 * A refusal that is neither an argument mistake nor a coded domain error: the
 * seed's approval answers (`{needsApproval: true, …}`), whose text tells the AI
 * what to do and whose structured part says why.
 */
export class Refusal extends Error {
  readonly [REFUSAL] = true;
  override readonly name = 'Refusal';

  constructor(
    message: string,
    readonly structured: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

/**
 * A typed error token (vmark-notes §1.2), the browser tools' error shape: the text is
 * `TOKEN: message` (plus the data as JSON, bounded), and `structuredContent` carries
 * `{error: TOKEN, message, ...data}`, e.g. `TAB_LIMIT`, `TIMEOUT` with its navigation ticket.
 */
export class TokenError extends Error {
  readonly [TOKEN] = true;
  override readonly name = 'TokenError';

  constructor(
    readonly token: string,
    message: string,
    readonly data: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

export function isTokenError(value: unknown): value is TokenError {
  return typeof value === 'object' && value !== null && TOKEN in value;
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && REFUSAL in value;
}

export function isDomainError(value: unknown): value is DomainError {
  return typeof value === 'object' && value !== null && DOMAIN in value;
}

export function isArgumentError(value: unknown): value is ArgumentError {
  return typeof value === 'object' && value !== null && ARGUMENT in value;
}

/** `expected_revision` did not match; carries the revision to re-read from. */
export function staleError(currentRevision: string): DomainError {
  return new DomainError('STALE', 'Document has changed since the last read', {
    current_revision: currentRevision,
  });
}
