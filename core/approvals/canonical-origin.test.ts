import { describe, expect, it } from 'vitest';
import { canonicalOrigin } from './canonical-origin.js';

describe('canonicalOrigin', () => {
  it.each([
    ['https://example.com', 'https://example.com'],
    ['HTTPS://Example.COM/', 'https://example.com'],
    ['https://example.com:443', 'https://example.com'],
    ['http://example.com:80', 'http://example.com'],
    ['http://example.com:8080', 'http://example.com:8080'],
    ['https://example.com.', 'https://example.com'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['http://127.0.0.1:5173', 'http://127.0.0.1:5173'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
  ])('%s is %s', (raw, origin) => {
    expect(canonicalOrigin(raw)).toBe(origin);
  });

  it.each([
    'example.com',
    'file:///etc/passwd',
    'about:blank',
    'javascript:alert(1)',
    'https://example.com/path',
    'https://example.com/?q',
    'https://example.com/#x',
    'https://user:pw@example.com',
    'https://a..example',
    '(unknown origin)',
    '',
  ])('%s is no origin', (raw) => {
    expect(canonicalOrigin(raw)).toBeUndefined();
  });
});
