import { describe, expect, it } from 'vitest';
import {
  applyTransform,
  INVALID_KIND_MESSAGE,
  isTransformKind,
  TRANSFORM_KINDS,
  type TransformKind,
} from './index.js';

describe('applyTransform', () => {
  it('offers the three kinds of the seed', () => {
    expect(TRANSFORM_KINDS).toEqual(['cjk-format', 'cjk-spacing', 'cjk-punctuation']);
    expect(isTransformKind('cjk-format')).toBe(true);
    expect(isTransformKind('format')).toBe(false);
    expect(isTransformKind(1)).toBe(false);
  });

  it('refuses an unknown kind with the seed message', () => {
    expect(() => applyTransform('cjk-bogus' as TransformKind, 'x')).toThrow(INVALID_KIND_MESSAGE);
    expect(INVALID_KIND_MESSAGE).toBe('kind must be one of: cjk-format, cjk-spacing, cjk-punctuation');
  });

  it.each(TRANSFORM_KINDS)('%s returns the very input when nothing changes', (kind) => {
    const input = 'Plain English, nothing to do.\n\n```\n中文a,\n```\n';
    expect(applyTransform(kind, input)).toBe(input);
    expect(applyTransform(kind, '')).toBe('');
  });

  it('cjk-format keeps the dots of file names and paths in running text (issue 11)', () => {
    const input = [
      '筆記在notes/中文筆記.md裡,圖片在./images/封面.png.',
      '設定見.github/workflows/ci.yml和C:\\Users\\me\\設定.json,或../README.md.',
      '',
    ].join('\n');
    expect(applyTransform('cjk-format', input)).toBe(
      [
        '筆記在 notes/中文筆記.md 裡，圖片在./images/封面.png.',
        '設定見.github/workflows/ci.yml 和 C:\\Users\\me\\設定.json，或../README.md.',
        '',
      ].join('\n'),
    );
  });

  it('cjk-format keeps the protected regions of a real document', () => {
    const input = [
      '---',
      'title: 中文,标题',
      '---',
      '',
      '# 标题Title',
      '',
      '使用`npm install`安装,见[文档](https://x.com/a,b)和<https://y.com>.',
      '',
      '| 列A | 列B |',
      '| --- | --- |',
      '| 中文English | 值1 |',
      '',
      '公式$E=mc^2$成立,价格$100.',
      '',
    ].join('\n');
    expect(applyTransform('cjk-format', input)).toBe(
      [
        '---',
        'title: 中文,标题',
        '---',
        '',
        '# 标题 Title',
        '',
        // Nothing CJK touches the final full stop: a protected autolink stands between.
        '使用`npm install`安装，见[文档](https://x.com/a,b)和<https://y.com>.',
        '',
        '| 列 A | 列 B |',
        '| --- | --- |',
        '| 中文 English | 值 1 |',
        '',
        '公式$E=mc^2$成立，价格 $100.',
        '',
      ].join('\n'),
    );
  });
});
