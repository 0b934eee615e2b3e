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
});
