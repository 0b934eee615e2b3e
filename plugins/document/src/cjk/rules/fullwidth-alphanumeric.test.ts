import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeFullwidthAlphanumeric } from './fullwidth-alphanumeric.js';

describe('normalizeFullwidthAlphanumeric', () => {
  it('turns fullwidth digits and letters into ASCII (§6: ３ → 3)', () => {
    expect(normalizeFullwidthAlphanumeric('３')).toBe('3');
    expect(normalizeFullwidthAlphanumeric('今天是２０２４年')).toBe('今天是2024年');
    expect(normalizeFullwidthAlphanumeric('ＡＢＣａｂｃ')).toBe('ABCabc');
  });

  it('leaves everything else, fullwidth punctuation included', () => {
    expect(normalizeFullwidthAlphanumeric('你好，世界！（Ｘ）')).toBe('你好，世界！（X）');
  });

  it('maps as the replace it was does, the ranges’ edges included (issue 18)', () => {
    const replace = (text: string) =>
      text.replace(/[\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A]/g, (char) =>
        String.fromCharCode(char.charCodeAt(0) - 0xfee0),
      );
    const unit = fc.constantFrom(
      ...'\uFF0F\uFF10\uFF19\uFF1A\uFF20\uFF21\uFF3A\uFF3B\uFF40\uFF41\uFF5A\uFF5B中a1 ，',
      '\uD800',
      '𠀀',
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 16 }), (units) => {
        const text = units.join('');
        expect(normalizeFullwidthAlphanumeric(text)).toBe(replace(text));
      }),
      { numRuns: 2000 },
    );
  });
});
