import { describe, expect, it } from 'vitest';
import { parseExpiry } from './expiry.js';

const NOW = new Date('2026-11-30T12:00:00.000Z');

describe('parseExpiry', () => {
  it('reads durations', () => {
    expect(parseExpiry('30m', NOW).toISOString()).toBe('2026-11-30T12:30:00.000Z');
    expect(parseExpiry('12h', NOW).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(parseExpiry('7d', NOW).toISOString()).toBe('2026-12-07T12:00:00.000Z');
    expect(parseExpiry('2w', NOW).toISOString()).toBe('2026-12-14T12:00:00.000Z');
  });

  it('reads RFC 3339 dates, offsets included', () => {
    expect(parseExpiry('2026-12-01T09:00:00+01:00', NOW).toISOString()).toBe('2026-12-01T08:00:00.000Z');
  });

  it('refuses a past or present end, a grant without end and a grant beyond a year', () => {
    expect(() => parseExpiry('0d', NOW)).toThrow(/future/);
    expect(() => parseExpiry('2026-11-29T00:00:00Z', NOW)).toThrow(/future/);
    expect(() => parseExpiry('never', NOW)).toThrow(/duration/);
    expect(() => parseExpiry('', NOW)).toThrow(/duration/);
    expect(() => parseExpiry('400d', NOW)).toThrow(/within a year/);
    expect(() => parseExpiry('7 d', NOW)).toThrow(/duration/);
  });
});
