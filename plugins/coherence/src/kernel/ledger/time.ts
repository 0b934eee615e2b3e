/**
 * Ledger timestamps. Writers emit exactly one shape (RFC 3339, UTC, milliseconds, as
 * `Date.prototype.toISOString` prints it); readers accept any RFC 3339 date-time and order by
 * the instant it denotes, so a line another implementation wrote with an offset or with more
 * fractional digits still sorts where that implementation would sort it.
 */

/** The only shape this implementation writes: `2026-07-18T09:30:12.415Z`. */
const WRITE_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** An instant with nanosecond resolution: JS numbers cannot hold epoch nanoseconds exactly. */
export interface Instant {
  /** Milliseconds since the Unix epoch. */
  readonly epochMs: number;
  /** Nanoseconds beyond `epochMs` (0..999_999), from fractional digits past the third. */
  readonly subMsNanos: number;
}

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** Parses an RFC 3339 date-time (leap seconds excluded); `null` when it is not one. */
export function parseTime(text: string): Instant | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac = '', , sign, oh = '0', om = '0'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const offH = Number(oh);
  const offM = Number(om);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || offH > 23 || offM > 59) return null;
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  // Date.UTC maps years 0..99 to 1900..1999; set the year separately to keep it literal.
  date.setUTCFullYear(year);
  const offsetMs = (sign === '-' ? -1 : 1) * (offH * 60 + offM) * 60_000;
  const digits = frac.padEnd(9, '0').slice(0, 9);
  return {
    epochMs: date.getTime() - offsetMs + Number(digits.slice(0, 3)),
    subMsNanos: Number(digits.slice(3)),
  };
}

/** True for the exact shape writers must emit (and a real calendar instant). */
export function isWriteTime(text: string): boolean {
  return WRITE_SHAPE.test(text) && parseTime(text) !== null;
}

/** Formats a clock reading the way writers must: RFC 3339, UTC, milliseconds. */
export function formatTime(date: Date): string {
  const text = date.toISOString();
  // toISOString switches to a six-digit signed year outside 0000..9999; refuse instead.
  if (!WRITE_SHAPE.test(text)) throw new RangeError(`time out of range for the ledger: ${text}`);
  return text;
}

export function compareInstants(a: Instant, b: Instant): number {
  return a.epochMs - b.epochMs || a.subMsNanos - b.subMsNanos;
}
