import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProtectedRegion } from './region-types.js';
import { extractSegments, rewriteMapped, type Segment } from './segments.js';

/** The rebuild spelled out: every gap rewritten, every region copied, placed by offset. */
function reference(
  content: string,
  regions: readonly ProtectedRegion[],
  rewrite: (segment: Segment) => string,
): { text: string; regionStarts: number[] } {
  const byStart = new Map(extractSegments(content, regions).map((segment) => [segment.from, segment]));
  let text = '';
  const regionStarts: number[] = [];
  let next = 0;
  for (let index = 0; index < content.length;) {
    const segment = byStart.get(index);
    if (segment) {
      text += rewrite(segment);
      index = segment.to;
      continue;
    }
    const region = regions[next]!;
    regionStarts.push(text.length);
    text += content.slice(region.from, region.to);
    index = region.to;
    next++;
  }
  for (; next < regions.length; next++) regionStarts.push(text.length);
  return { text, regionStarts };
}

/** Ordered, disjoint regions of a text of `length` units, from cut points. */
function regionsFrom(length: number, cuts: readonly number[]): ProtectedRegion[] {
  const points = [...new Set(cuts.map((cut) => cut % (length + 1)))].sort((a, b) => a - b);
  const regions: ProtectedRegion[] = [];
  for (let index = 0; index + 1 < points.length; index += 2) {
    regions.push({ from: points[index]!, to: points[index + 1]!, kind: 'code', inline: index % 4 === 0 });
  }
  return regions;
}

describe('rewriteMapped', () => {
  it('rebuilds the text and places every region as the spelled-out rebuild does', () => {
    const rewrites = ['', 'x', '中文', '\uD840', 'longer than thirteen units'];
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', '中', ' ', '\n', '\uDC00', '𠀀'), maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.array(fc.nat(rewrites.length), { maxLength: 8 }),
        (content, cuts, picks) => {
          const regions = regionsFrom(content.length, cuts);
          let call = 0;
          // The same rewrite for both runs: by segment start, the input text or a replacement.
          const rewrite = (segment: Segment) => {
            const pick = picks[segment.from % Math.max(1, picks.length)] ?? rewrites.length;
            call++;
            return pick < rewrites.length ? rewrites[pick]! + segment.text.slice(1) : segment.text;
          };
          const expected = reference(content, regions, rewrite);
          call = 0;
          const { text, regionStarts } = rewriteMapped(content, regions, rewrite);
          expect(call).toBe(extractSegments(content, regions).length);
          expect(text).toBe(expected.text);
          expect([...regionStarts]).toEqual(expected.regionStarts);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('returns the input itself when no segment changes', () => {
    const content = 'ab`code`cd';
    const regions: ProtectedRegion[] = [{ from: 2, to: 8, kind: 'code', inline: true }];
    expect(rewriteMapped(content, regions, (segment) => segment.text).text).toBe(content);
  });

  it('rebuilds a document of 100,000 regions (a deep rope reads back whole)', () => {
    const unit = '中a`x`';
    const content = unit.repeat(100_000);
    const regions: ProtectedRegion[] = Array.from({ length: 100_000 }, (_, index) => ({
      from: index * unit.length + 2,
      to: index * unit.length + 5,
      kind: 'code',
      inline: true,
    }));
    const { text } = rewriteMapped(content, regions, (segment) => `${segment.text} `);
    expect(text).toBe('中a `x`'.repeat(100_000));
    expect(text.charCodeAt(text.length - 1)).toBe(0x60);
  });
});
