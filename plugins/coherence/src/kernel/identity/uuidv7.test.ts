import { describe, expect, it } from 'vitest';

import { NIL_UUID, createUuidv7Generator, isUuid, isUuidV7, uuidv7, uuidv7Time } from './uuidv7.js';

const zeros = (n: number): Uint8Array => new Uint8Array(n);
const ones = (n: number): Uint8Array => new Uint8Array(n).fill(0xff);

describe('uuidv7', () => {
  it('has the RFC 9562 layout: timestamp, version 7, variant 10', () => {
    const id = createUuidv7Generator()(0x0123456789ab, zeros);
    expect(id).toBe('01234567-89ab-7000-8000-000000000000');
    const full = createUuidv7Generator()(0x0123456789ab, ones);
    // 74 random bits with the top one cleared (counter headroom): rand_a 0x7ff, rand_b max.
    expect(full).toBe('01234567-89ab-77ff-bfff-ffffffffffff');
    expect(isUuidV7(id) && isUuidV7(full)).toBe(true);
  });

  it('round-trips the timestamp', () => {
    const now = Date.UTC(2026, 6, 18, 9, 30, 12, 415);
    expect(uuidv7Time(createUuidv7Generator()(now))).toBe(now);
    expect(() => uuidv7Time(NIL_UUID)).toThrow(RangeError);
  });

  it('is monotonic within one millisecond and when the clock steps back', () => {
    const gen = createUuidv7Generator();
    const ids = [gen(1000, zeros), gen(1000, zeros), gen(1000, zeros), gen(999, ones), gen(1001, zeros)];
    expect(ids[1]).toBe('00000000-03e8-7000-8000-000000000001');
    expect(ids[3]).toBe('00000000-03e8-7000-8000-000000000003');
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('orders ids minted in a burst by the default generator', () => {
    const ids = Array.from({ length: 2000 }, () => uuidv7());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(isUuidV7(id)).toBe(true);
  });

  it('validates UUID strings', () => {
    expect(isUuid(NIL_UUID)).toBe(true);
    expect(isUuid('018F3C7A-9F2E-7CC1-B302-5E9D4A6B21C7')).toBe(true);
    expect(isUuid('018f3c7a9f2e7cc1b3025e9d4a6b21c7')).toBe(false);
    expect(isUuid('{018f3c7a-9f2e-7cc1-b302-5e9d4a6b21c7}')).toBe(false);
    expect(isUuidV7('018f3c7a-9f2e-4cc1-b302-5e9d4a6b21c7')).toBe(false);
    expect(isUuidV7('018f3c7a-9f2e-7cc1-c302-5e9d4a6b21c7')).toBe(false);
  });

  it('rejects timestamps outside 48 bits', () => {
    expect(() => createUuidv7Generator()(-1)).toThrow(RangeError);
    expect(() => createUuidv7Generator()(2 ** 48)).toThrow(RangeError);
  });
});
