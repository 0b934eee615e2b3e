/**
 * `--expires` of `vmark coherence delegate`: a duration (`30m`, `12h`, `7d`, `2w`) or an RFC 3339
 * date. A grant always ends (vmark-notes §7.3: never "forever"), at most a year out.
 */
import { parseTime } from '../kernel/ledger/index.js';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;
export const MAX_GRANT_MS = 365 * UNIT_MS.d;

export function parseExpiry(text: string, now: Date): Date {
  const duration = /^(\d{1,6})([mhdw])$/.exec(text);
  let at: number;
  if (duration) at = now.getTime() + Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS];
  else {
    const instant = parseTime(text);
    if (instant === null)
      throw new RangeError(
        `--expires must be a duration such as 7d or 12h, or an RFC 3339 date; got ${text}`,
      );
    at = instant.epochMs;
  }
  if (at <= now.getTime()) throw new RangeError('--expires must be in the future');
  if (at - now.getTime() > MAX_GRANT_MS)
    throw new RangeError('--expires must be within a year: grants always end');
  return new Date(at);
}
