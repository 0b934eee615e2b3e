import { describe, expect, it } from 'vitest';
import { fixSlashSpacing } from './slash-spacing.js';

describe('fixSlashSpacing', () => {
  it('removes the spaces around a slash between words (§6: A / B → A/B)', () => {
    expect(fixSlashSpacing('A / B')).toBe('A/B');
    expect(fixSlashSpacing('输入 /输出')).toBe('输入/输出');
  });

  it('leaves URLs, comments, line edges and sticky neighbours', () => {
    expect(fixSlashSpacing('http://example.com')).toBe('http://example.com');
    expect(fixSlashSpacing('a // b')).toBe('a // b');
    expect(fixSlashSpacing('  / path')).toBe('  / path');
    expect(fixSlashSpacing('$ / $')).toBe('$ / $');
    expect(fixSlashSpacing('_ / _')).toBe('_ / _');
  });
});
