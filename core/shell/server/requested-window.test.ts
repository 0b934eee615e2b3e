import { describe, expect, it } from 'vitest';
import { requestedWindow } from './requested-window.js';

describe('requestedWindow', () => {
  it('reads the label a page asks for', () => {
    expect(requestedWindow({ url: '/ws?token=t&window=w-2' })).toBe('w-2');
    expect(requestedWindow({ url: '/ws?window=main&token=t' })).toBe('main');
  });

  it.each([
    ['no label', '/ws?token=t'],
    ['an empty label', '/ws?window='],
    ['a made-up label', '/ws?window=evil'],
    ['a label with a path in it', '/ws?window=w-2%2F..'],
    ['w-0', '/ws?window=w-0'],
    ['an overlong number', '/ws?window=w-12345678901'],
  ])('asks for none given %s', (_what, url) => {
    expect(requestedWindow({ url })).toBeNull();
  });
});
