/**
 * The format-0 ledger line: one JSON object per line,
 * `{"format":0,"id","kind","time","writer","idem","body"}` (vmark-notes §7.3).
 */
import { z } from '@vmark/sdk';
import { bodySchemas, isKnownKind, rfc3339, uuidString, type BodyOf, type KnownKind } from './bodies.js';
import { compareInstants, formatTime, isWriteTime, parseTime, type Instant } from './time.js';

export const LEDGER_FORMAT = 0;

/** Longest line (UTF-8 bytes, without its `\n`) written or accepted on read. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Loose, so envelope fields a later format-0 writer adds survive a read. `idem` is only
 * required to be non-empty: the original derives some idem keys from a preimage (operator
 * accepts), and their exact shape is not pinned down.
 */
export const envelopeSchema = z.looseObject({
  format: z.literal(LEDGER_FORMAT),
  id: uuidString,
  kind: z.string().min(1),
  time: rfc3339,
  writer: uuidString,
  idem: z.string().min(1),
  body: z.record(z.string(), z.unknown()),
});

export type LedgerEntry = z.infer<typeof envelopeSchema>;

/** An entry whose kind this implementation knows, with its body typed. */
export type KnownEntry<K extends KnownKind> = LedgerEntry & { kind: K; body: BodyOf<K> };

/** Narrows an entry that came through `parseLine` (its known-kind body has been validated). */
export function isKind<K extends KnownKind>(entry: LedgerEntry, kind: K): entry is KnownEntry<K> {
  return entry.kind === kind;
}

export type ParsedLine =
  | { readonly ok: LedgerEntry; readonly lineNumber: number }
  | { readonly futureFormat: true; readonly lineNumber: number }
  | { readonly quarantine: string; readonly lineNumber: number };

export interface LineBounds {
  /** Defaults to `MAX_LINE_BYTES`; tests lower it. */
  readonly maxLineBytes?: number;
}

/** First issue only, on one line: it becomes the `# line N, <reason>` header in quarantine. */
function describeIssue(prefix: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return prefix;
  const at = issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : '';
  return `${prefix}${at}: ${issue.message}`.replace(/\s+/g, ' ');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Classifies one ledger line (without its `\n`). The reasons are deterministic, because the
 * quarantine file dedupes on the exact `# line N, <reason>` record.
 */
export function parseLine(line: string, lineNumber: number, bounds: LineBounds = {}): ParsedLine {
  const max = bounds.maxLineBytes ?? MAX_LINE_BYTES;
  if (Buffer.byteLength(line, 'utf8') > max) {
    return { quarantine: `line exceeds ${max} bytes`, lineNumber };
  }
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { quarantine: 'invalid JSON', lineNumber };
  }
  if (!isPlainObject(value)) return { quarantine: 'invalid envelope: not a JSON object', lineNumber };
  // A later format is not damage: this reader just cannot interpret it. Its other fields may
  // follow rules we do not know, so only `format` is looked at.
  const format = value['format'];
  if (typeof format === 'number' && Number.isInteger(format) && format > LEDGER_FORMAT) {
    return { futureFormat: true, lineNumber };
  }
  const envelope = envelopeSchema.safeParse(value);
  if (!envelope.success) return { quarantine: describeIssue('invalid envelope', envelope.error), lineNumber };
  const kind = envelope.data.kind;
  if (isKnownKind(kind)) {
    const body = bodySchemas[kind].safeParse(envelope.data.body);
    if (!body.success) return { quarantine: describeIssue(`invalid ${kind} body`, body.error), lineNumber };
  }
  // Unknown kinds pass with the body unchecked, so newer writers' entries are preserved.
  return { ok: envelope.data, lineNumber };
}

/** Parsed times, kept per entry: sorting compares each entry many times. */
const instants = new WeakMap<LedgerEntry, Instant | null>();

function instantOf(entry: LedgerEntry): Instant | null {
  let instant = instants.get(entry);
  if (instant === undefined) instants.set(entry, (instant = parseTime(entry.time)));
  return instant;
}

/** Total order of the ledger: (instant of `time`, `id`). */
export function compareEntries(a: LedgerEntry, b: LedgerEntry): number {
  const ta = instantOf(a);
  const tb = instantOf(b);
  // Both parsed when the envelope was validated; the fallback only keeps the function total.
  const byTime = ta && tb ? compareInstants(ta, tb) : a.time < b.time ? -1 : a.time > b.time ? 1 : 0;
  if (byTime !== 0) return byTime;
  // UUIDs compare as their 128-bit values, which lower-case hex text orders the same way.
  const ia = a.id.toLowerCase();
  const ib = b.id.toLowerCase();
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

export interface EntryFactory {
  /** The installation's writer id. */
  readonly writer: string;
  /** Mints entry ids (UUIDv7 in production); injected so this module owns no id scheme. */
  readonly newId: () => string;
  readonly now: () => Date;
}

/**
 * Builds a format-0 envelope. `idem` defaults to a fresh id: pass a stable one when a retry
 * of the same act must not produce a second effective entry.
 */
export function createEntry<K extends KnownKind>(
  kind: K,
  body: BodyOf<K>,
  factory: EntryFactory,
  idem?: string,
): KnownEntry<K> {
  return {
    format: LEDGER_FORMAT,
    id: factory.newId(),
    kind,
    time: formatTime(factory.now()),
    writer: factory.writer,
    idem: idem ?? factory.newId(),
    body,
  };
}

export type EntryCheck =
  { readonly ok: true; readonly line: string } | { readonly ok: false; readonly reason: string };

export interface WriteRules extends LineBounds {
  /** Allow kinds this implementation has no schema for (their bodies go unchecked). */
  readonly allowUnknownKind?: boolean;
}

/**
 * Validates an entry for writing and serializes it (without the `\n`). Stricter than reading:
 * the time must have the exact writer shape, the kind must be known (unless allowed), and the
 * serialized line itself must read back as valid, which catches values JSON turns into
 * something else (`NaN` into `null`, a `Date` into a string) and the line-length bound.
 */
export function serializeEntry(entry: unknown, rules: WriteRules = {}): EntryCheck {
  const envelope = envelopeSchema.safeParse(entry);
  if (!envelope.success) return { ok: false, reason: describeIssue('invalid envelope', envelope.error) };
  const { kind, time } = envelope.data;
  if (!isWriteTime(time)) return { ok: false, reason: 'time must be RFC 3339 UTC with milliseconds' };
  if (!isKnownKind(kind) && rules.allowUnknownKind !== true) {
    return { ok: false, reason: `unknown kind: ${kind}` };
  }
  let line: string;
  try {
    line = JSON.stringify(entry);
  } catch (error) {
    return {
      ok: false,
      reason: `not serializable: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const reread = parseLine(line, 0, rules);
  if ('quarantine' in reread) return { ok: false, reason: reread.quarantine };
  if ('futureFormat' in reread) return { ok: false, reason: 'format must be 0' };
  return { ok: true, line };
}
