import { describe, expect, it } from 'vitest';
import { WHOLE_TEXT } from '../segments.js';
import { fixCurrencySpacing } from './currency-spacing.js';

const c = (text: string) => fixCurrencySpacing(text, WHOLE_TEXT);

describe('fixCurrencySpacing', () => {
  it('binds a currency symbol to its amount (§6: $ 100 → $100)', () => {
    expect(c('$ 100')).toBe('$100');
    expect(c('¥ 500，€ 99.99，£ 50')).toBe('¥500，€99.99，£50');
    expect(c('价格是 $ 99.99 (含税)')).toBe('价格是 $99.99 (含税)');
  });

  it('binds units to their number', () => {
    expect(c('温度 25 ℃, 折扣 50 %')).toBe('温度 25℃, 折扣 50%');
    expect(c('5 ‰')).toBe('5‰');
    expect(c('25 °C')).toBe('25°C');
  });

  it('spaces a currency code after an amount, and leaves one before it', () => {
    expect(c('共100USD。')).toBe('共100 USD。');
    expect(c('USD 200')).toBe('USD 200');
    expect(c('100USDT')).toBe('100USDT');
  });

  it('does not tighten $ when another $ may follow on the line (it could open math)', () => {
    expect(c('花了$ 100和$x$')).toBe('花了$ 100和$x$');
    expect(fixCurrencySpacing('花了$ 100', { ...WHOLE_TEXT, atDocumentEnd: false })).toBe('花了$ 100');
    expect(c('花了$ 100\n另$x$')).toBe('花了$100\n另$x$');
  });

  it('never joins lines', () => {
    expect(c('$\n100')).toBe('$\n100');
  });
});
