import { describe, expect, it } from 'vitest';
import { randomDraw, randomHex } from './random-draws.js';

describe('random draws', () => {
  it('gives the length asked for, as bytes or as hex', () => {
    expect(randomDraw(8)).toHaveLength(8);
    expect(randomHex(6)).toMatch(/^[0-9a-f]{12}$/);
    expect(randomDraw(5000)).toHaveLength(5000);
    expect(randomHex(5000)).toMatch(/^[0-9a-f]{10000}$/);
  });

  it('never hands out the same bytes twice, across refills of the pool', () => {
    // 2,000 draws of 8 bytes go through the 4 KB pool about four times.
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      seen.add(randomHex(8));
      seen.add(randomDraw(8).toString('hex'));
    }
    expect(seen.size).toBe(2000);
  });

  it('gives a buffer of its own: changing it changes no later draw', () => {
    const first = randomDraw(16);
    first.fill(0);
    const later = Array.from({ length: 300 }, () => randomDraw(16));
    expect(later.some((draw) => draw.equals(first))).toBe(false);
  });

  it('draws bytes spread over every value', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 64; i++) for (const byte of randomDraw(1024)) counts[byte]!++;
    // 65,536 bytes: about 256 of each value; none missing, none far off.
    expect(Math.min(...counts)).toBeGreaterThan(150);
    expect(Math.max(...counts)).toBeLessThan(380);
  });
});
