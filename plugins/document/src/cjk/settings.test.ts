import { describe, expect, it } from 'vitest';
import {
  applyTransform,
  cjkFormattingSchema,
  DEFAULT_CJK_FORMATTING,
  type CjkFormattingSettings,
} from './index.js';

describe('cjkFormattingSchema', () => {
  it('parses an empty object to the defaults', () => {
    expect(cjkFormattingSchema.parse({})).toEqual(DEFAULT_CJK_FORMATTING);
  });

  it('fills a partial object with defaults and drops unknown keys', () => {
    expect(
      cjkFormattingSchema.parse({ quoteStyle: 'corner', consecutivePunctuationLimit: 2, extra: 1 }),
    ).toEqual({
      ...DEFAULT_CJK_FORMATTING,
      quoteStyle: 'corner',
      consecutivePunctuationLimit: 2,
    });
  });

  it('gives a value outside the settings domain its own default, keeping the other fields', () => {
    expect(
      cjkFormattingSchema.parse({
        quoteStyle: 'straight',
        consecutivePunctuationLimit: 3,
        spaceCollapsing: 'yes',
        dashConversion: !DEFAULT_CJK_FORMATTING.dashConversion,
      }),
    ).toEqual({ ...DEFAULT_CJK_FORMATTING, dashConversion: !DEFAULT_CJK_FORMATTING.dashConversion });
  });

  it('has the defaults of §6', () => {
    expect(DEFAULT_CJK_FORMATTING).toEqual({
      ellipsisNormalization: true,
      newlineCollapsing: false,
      fullwidthAlphanumeric: true,
      fullwidthPunctuation: true,
      fullwidthParentheses: true,
      fullwidthBrackets: false,
      cjkEnglishSpacing: true,
      cjkParenthesisSpacing: true,
      currencySpacing: true,
      slashSpacing: true,
      spaceCollapsing: true,
      dashConversion: true,
      emdashSpacing: true,
      smartQuoteConversion: true,
      quoteStyle: 'curly',
      contextualQuotes: true,
      quoteSpacing: true,
      singleQuoteSpacing: true,
      cjkCornerQuotes: false,
      cjkNestedQuotes: false,
      quoteToggleMode: 'simple',
      consecutivePunctuationLimit: 0,
      trailingSpaceRemoval: true,
      skipReferenceSections: false,
    });
  });
});

type Toggle = {
  [K in keyof CjkFormattingSettings]: [K, CjkFormattingSettings[K], string, string, string];
}[keyof CjkFormattingSettings];

/** [setting, its non-default value, input, output with defaults, output with the setting toggled]. */
const TOGGLES: Toggle[] = [
  ['ellipsisNormalization', false, '然后. . .继续', '然后... 继续', '然后。 . 。继续'],
  ['newlineCollapsing', true, '中文\n\n\n\n中文', '中文\n\n\n\n中文', '中文\n\n中文'],
  ['fullwidthAlphanumeric', false, '完成了３个', '完成了 3 个', '完成了３个'],
  ['fullwidthPunctuation', false, '你好,世界', '你好，世界', '你好,世界'],
  ['fullwidthParentheses', false, '中文(注意)中文', '中文（注意）中文', '中文 (注意) 中文'],
  ['fullwidthBrackets', true, '这是[重点]内容', '这是[重点]内容', '这是【重点】内容'],
  ['cjkEnglishSpacing', false, '学习Python编程', '学习 Python 编程', '学习Python编程'],
  ['cjkParenthesisSpacing', false, '测试(text)', '测试 (text)', '测试(text)'],
  ['currencySpacing', false, '价格 $ 100', '价格 $100', '价格 $ 100'],
  ['slashSpacing', false, '中文 A / B', '中文 A/B', '中文 A / B'],
  ['spaceCollapsing', false, '多个   空格', '多个 空格', '多个   空格'],
  ['dashConversion', false, '原因--结果', '原因 —— 结果', '原因--结果'],
  ['emdashSpacing', false, '原因——结果', '原因 —— 结果', '原因——结果'],
  ['smartQuoteConversion', false, '他说"你好"', '他说 “你好”', '他说"你好"'],
  ['contextualQuotes', false, '中文 "hello" 中文', '中文 "hello" 中文', '中文 “hello” 中文'],
  ['quoteSpacing', false, '他说“你好”然后', '他说 “你好” 然后', '他说“你好”然后'],
  ['singleQuoteSpacing', false, '他说‘你好’然后', '他说 ‘你好’ 然后', '他说‘你好’然后'],
  ['cjkCornerQuotes', true, '他说"你好"', '他说 “你好”', '他说「你好」'],
  ['quoteStyle', 'guillemets', '他说"你好"', '他说 “你好”', '他说«你好»'],
  ['cjkNestedQuotes', true, '「包含‘嵌套’」', '「包含 ‘嵌套’」', '「包含『嵌套』」'],
  ['consecutivePunctuationLimit', 1, '太棒了！！！', '太棒了！！！', '太棒了！'],
  // With trailing removal off, space collapsing still shortens the run to one space.
  ['trailingSpaceRemoval', false, '中文  \n\n中文', '中文\n\n中文', '中文 \n\n中文'],
  [
    'skipReferenceSections',
    true,
    '## References\n\n中文,English\n',
    '## References\n\n中文，English\n',
    '## References\n\n中文,English\n',
  ],
];

describe('each setting switches its rule', () => {
  it.each(TOGGLES)('%s = %s', (setting, value, input, withDefaults, toggled) => {
    expect(applyTransform('cjk-format', input)).toBe(withDefaults);
    expect(applyTransform('cjk-format', input, { ...DEFAULT_CJK_FORMATTING, [setting]: value })).toBe(
      toggled,
    );
  });

  it('covers every setting that a rule reads', () => {
    const covered = new Set(TOGGLES.map(([setting]) => setting));
    const unread = new Set<keyof CjkFormattingSettings>(['quoteToggleMode']);
    for (const setting of Object.keys(DEFAULT_CJK_FORMATTING) as (keyof CjkFormattingSettings)[]) {
      if (!unread.has(setting)) expect(covered, setting).toContain(setting);
    }
  });

  it('does nothing with every rule off', () => {
    const off = cjkFormattingSchema.parse(
      Object.fromEntries(
        Object.entries(DEFAULT_CJK_FORMATTING).map(([key, value]) => [
          key,
          typeof value === 'boolean' ? false : value,
        ]),
      ),
    );
    const input = '最近我在学习TypeScript和React,感觉收获很大.  \n\n\n"引用"--测试. . .（３）  ';
    expect(applyTransform('cjk-format', input, off)).toBe(input);
  });
});
