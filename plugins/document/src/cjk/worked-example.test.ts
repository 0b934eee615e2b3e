/**
 * The worked example of the design notes (§6), from the original editor's CJK
 * formatting guide: the sentence, the fragments, and the guide's whole test paragraph.
 */
import { describe, expect, it } from 'vitest';
import { applyTransform } from './index.js';

const format = (text: string) => applyTransform('cjk-format', text);

describe('the §6 worked example', () => {
  it('formats the sentence exactly', () => {
    expect(format('最近我在学习TypeScript和React,感觉收获很大.')).toBe(
      '最近我在学习 TypeScript 和 React，感觉收获很大。',
    );
  });

  it('formats the fragments', () => {
    expect(format('原因--结果')).toBe('原因 —— 结果');
    expect(format('等等. . .')).toBe('等等...');
    expect(format('然后. . .继续')).toBe('然后... 继续');
    expect(format('３')).toBe('3');
    expect(format('共３个')).toBe('共 3 个');
    expect(format(`他说"don't give up"`)).toBe(`他说 “don't give up”`);
  });

  it('formats the guide test paragraph as the guide shows', () => {
    const input = [
      '最近我在学习TypeScript和React,感觉收获很大.作为一个developer,掌握这些modern前端技术是必须的.',
      '',
      '目前已经完成了３个projects,代码量超过１０００行.其中最复杂的是一个dashboard应用,包含了数据可视化,用户认证,还有API集成等功能.',
      '',
      '学习过程中遇到的最大挑战是--状态管理.Redux的概念. . .说实话有点难理解.后来换成了Zustand,简单多了!',
      '',
      '老师说"don\'t give up"然后继续讲"写代码要注重可读性",我觉得很有道理.',
      '',
      '访问https://example.com/docs获取v2.0.0版本文档,价格$99.99,时间12:30开始.',
      '',
      '项目使用的技术栈如下:',
      '',
      '总共花费大约$２００美元购买了学习资源,包括书籍和online courses.虽然价格不便宜,但非常值得.',
      '',
    ].join('\n');
    const expected = [
      '最近我在学习 TypeScript 和 React，感觉收获很大。作为一个 developer，掌握这些 modern 前端技术是必须的。',
      '',
      '目前已经完成了 3 个 projects，代码量超过 1000 行。其中最复杂的是一个 dashboard 应用，包含了数据可视化，用户认证，还有 API 集成等功能。',
      '',
      '学习过程中遇到的最大挑战是 —— 状态管理。Redux 的概念... 说实话有点难理解。后来换成了 Zustand，简单多了！',
      '',
      "老师说 “don't give up” 然后继续讲 “写代码要注重可读性”，我觉得很有道理。",
      '',
      '访问 https://example.com/docs 获取 v2.0.0 版本文档，价格 $99.99，时间 12:30 开始。',
      '',
      '项目使用的技术栈如下：',
      '',
      '总共花费大约 $200 美元购买了学习资源，包括书籍和 online courses。虽然价格不便宜，但非常值得。',
      '',
    ].join('\n');
    expect(format(input)).toBe(expected);
    expect(format(expected)).toBe(expected);
  });

  it('leaves a Latin-only list item alone (no CJK in its text)', () => {
    // The guide once showed `**Frontend** —— React`; the original's rules, and its later
    // guide, leave the line as it is: `--` between `**` and a Latin word is not Chinese.
    expect(format('- **Frontend**--React + TypeScript\n')).toBe('- **Frontend**--React + TypeScript\n');
  });
});
