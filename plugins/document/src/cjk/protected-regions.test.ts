import { describe, expect, it } from 'vitest';
import { findProtectedRegions, type RegionKind } from './index.js';

const regions = (text: string, skipReferenceSections = false) =>
  findProtectedRegions(text, { skipReferenceSections }).map((region) => [
    region.kind,
    text.slice(region.from, region.to),
  ]);

const texts = (text: string, kind: RegionKind) =>
  regions(text)
    .filter(([k]) => k === kind)
    .map(([, t]) => t);

describe('findProtectedRegions', () => {
  it('protects code: fenced, indented and inline', () => {
    const doc = '```js\nlet 中文a=1\n```\n\n    indented,code\n\n文字`code,中文`文字';
    expect(texts(doc, 'code')).toEqual(['```js\nlet 中文a=1\n```', 'indented,code', '`code,中文`']);
  });

  it('protects front matter at the very top only', () => {
    expect(texts('---\ntitle: 中文,标题\n---\n\n正文', 'front-matter')).toEqual([
      '---\ntitle: 中文,标题\n---',
    ]);
    expect(texts('\uFEFF---\na: 1\n...\n', 'front-matter')).toEqual(['\uFEFF---\na: 1\n...']);
    expect(texts('正文\n\n---\ntitle: x\n---\n', 'front-matter')).toEqual([]);
    // A fence inside front matter does not open a code block in the body.
    expect(texts('---\na: ```\n---\n中文,text', 'code')).toEqual([]);
  });

  it('protects link syntax but not link text', () => {
    expect(regions('[链接,text](https://x.com/a,b "标题")')).toEqual([
      ['link-syntax', '['],
      ['link-syntax', '](https://x.com/a,b "标题")'],
    ]);
    expect(regions('![图片,alt](a,b.png)')).toEqual([
      ['link-syntax', '!['],
      ['link-syntax', '](a,b.png)'],
    ]);
    expect(regions('[文本][标签]')).toEqual([
      ['link-syntax', '['],
      ['link-syntax', '][标签]'],
    ]);
  });

  it('protects a shortcut reference whole when its label is defined, and not otherwise', () => {
    expect(regions('[重点,A]\n\n[重点,a]: https://x.com')).toEqual([
      ['link-syntax', '[重点,A]'],
      ['reference-definition', '[重点,a]: https://x.com'],
    ]);
    expect(regions('[重点]')).toEqual([]);
  });

  it('protects autolinks, HTML, escapes, entities and hard breaks', () => {
    expect(regions('<https://a.b/c,d> <b>粗,体</b> <!-- 注释 --> \\, &#x5176; a  \nb')).toEqual([
      ['link-syntax', '<https://a.b/c,d>'],
      ['html', '<b>'],
      ['html', '</b>'],
      ['html', '<!-- 注释 -->'],
      ['escape', '\\,'],
      ['entity', '&#x5176;'],
      ['hard-break', '  \n'],
    ]);
    expect(texts('<div>\n中文,html\n</div>', 'html')).toEqual(['<div>\n中文,html\n</div>']);
  });

  it('protects Markdown markup: list, quote, heading marks, table pipes, emphasis, task markers, rules', () => {
    const doc = '# 标题\n\n> 引用\n\n1. 一\n- [ ] 任务 **粗** ~~删~~\n\n---\n\n| a | b |\n|---|---|';
    expect(texts(doc, 'markup')).toEqual([
      '#',
      '>',
      '1.',
      '-',
      '[ ]',
      '**',
      '**',
      '~~',
      '~~',
      '---',
      '|',
      '|',
      '|',
      '|---|---|',
    ]);
  });

  it('protects math, and tells prices from formulas', () => {
    expect(texts('公式$x^2,y$和$$\na,b\n$$', 'math')).toEqual(['$x^2,y$', '$$\na,b\n$$']);
    expect(texts('花了$100和$200', 'math')).toEqual([]);
    expect(texts('价格$99.99,时间', 'math')).toEqual([]);
    expect(texts('$5 and $x$', 'math')).toEqual(['$x$']);
    expect(texts('`$a$` \\$b$', 'math')).toEqual([]);
    expect(texts('$a*b*c$', 'math')).toEqual(['$a*b*c$']);
    expect(texts('$$\nunclosed\n\nlater $$', 'math')).toEqual([]);
  });

  it('protects footnote markers and wiki links', () => {
    expect(regions('脚注[^1]。\n\n[^1]: 脚注,内容')).toEqual([
      ['footnote', '[^1]'],
      ['footnote', '[^1]:'],
    ]);
    expect(texts('见[[维基,链接]]和[[a|b]]', 'wiki-link')).toEqual(['[[维基,链接]]', '[[a|b]]']);
  });

  it('protects reference sections only when asked', () => {
    const doc = '# 文档\n\n正文\n\n## References\n\n1. 作者,标题.\n\n### 子节\n\n内容\n\n## 下一节\n\n正文';
    expect(regions(doc, true).filter(([kind]) => kind === 'reference-section')).toEqual([
      ['reference-section', '## References\n\n1. 作者,标题.\n\n### 子节\n\n内容\n\n'],
    ]);
    expect(texts('## 参考文献\n\n文献', 'reference-section')).toEqual([]);
    expect(regions('## 参考文献\n\n文献', true).map(([kind]) => kind)).toEqual(['reference-section']);
  });

  it('reads CRLF documents like LF ones', () => {
    expect(texts('a  \r\nb', 'hard-break')).toEqual(['  \r\n']);
    // The parser sees the closing fence's "\r" as trailing space: it is protected with it.
    expect(texts('```\r\n中文,code\r\n```\r\n\r\n中文,text', 'code')).toEqual(['```\r\n中文,code\r\n```\r']);
  });

  it('returns ordered, disjoint regions', () => {
    const found = findProtectedRegions('[`a`](u) **`b`** $`c`$ [[`d`]]');
    for (let index = 1; index < found.length; index++) {
      expect(found[index]?.from).toBeGreaterThanOrEqual(found[index - 1]?.to ?? 0);
    }
  });
});
