import { GFM, parser } from '@lezer/markdown';
import { describe, expect, it } from 'vitest';
import { toMarkdown } from './generic-reader.js';

const URL = 'https://example.com/docs/page.html';

describe('toMarkdown', () => {
  it('makes links and images absolute against the page, keeping fragment links', () => {
    expect(
      toMarkdown(
        '<p><a href="../guide/">Guide</a>, <a href="#top">top</a> and <img src="/i.png" alt="i"></p>',
        URL,
      ),
    ).toBe('[Guide](https://example.com/guide/), [top](#top) and ![i](https://example.com/i.png)');
  });

  it.each([
    ['<pre class="lang-py">x = 1</pre>', '```py\nx = 1\n```'],
    [
      '<div class="highlight highlight-source-rust"><pre><span>fn</span> main() {}</pre></div>',
      '```rust\nfn main() {}\n```',
    ],
    ['<pre class="brush: js notranslate">let a;</pre>', '```js\nlet a;\n```'],
    ['<pre><code class="language-ts">let b: number;</code></pre>', '```ts\nlet b: number;\n```'],
    ['<pre>plain</pre>', '```\nplain\n```'],
  ])('fences %s with its language', (html, markdown) => {
    expect(toMarkdown(html, URL)).toBe(markdown);
  });

  it.each([
    [
      'Pygments line numbers inline',
      '<div class="highlight-python"><div class="highlight"><pre><span class="linenos">1</span>def f():\n<span class="linenos">2</span>    return 1\n</pre></div></div>',
      '```python\ndef f():\n    return 1\n```',
    ],
    [
      'a Pygments gutter table',
      '<div class="highlight-python"><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre><span class="normal">1</span>\n<span class="normal">2</span></pre></div></td><td class="code"><div class="highlight"><pre>def f():\n    return 1\n</pre></div></td></tr></table></div>',
      '```python\ndef f():\n    return 1\n```',
    ],
    [
      'a Rouge gutter table',
      '<div class="language-ruby highlighter-rouge"><div class="highlight"><pre class="highlight"><code><table class="rouge-table"><tbody><tr><td class="rouge-gutter gl"><pre class="lineno">1\n2\n</pre></td><td class="rouge-code"><pre>puts 1\nputs 2\n</pre></td></tr></tbody></table></code></pre></div></div>',
      '```ruby\nputs 1\nputs 2\n```',
    ],
    [
      "highlight.js's line-number rows",
      '<pre><code class="hljs language-go"><table class="hljs-ln"><tr><td class="hljs-ln-line hljs-ln-numbers" data-line-number="1"><div class="hljs-ln-n" data-line-number="1"></div></td><td class="hljs-ln-line hljs-ln-code">package main</td></tr><tr><td class="hljs-ln-line hljs-ln-numbers" data-line-number="2"><div class="hljs-ln-n" data-line-number="2"></div></td><td class="hljs-ln-line hljs-ln-code">func main() {}</td></tr></table></code></pre>',
      '```go\npackage main\nfunc main() {}\n```',
    ],
    [
      'a line-number span on each line',
      '<pre><code class="language-sh"><span class="line"><span class="ln">1</span>echo a</span>\n<span class="line"><span class="ln">2</span>echo b</span></code></pre>',
      '```sh\necho a\necho b\n```',
    ],
  ])('drops the line numbers of %s and keeps the language', (_what, html, markdown) => {
    expect(toMarkdown(html, URL)).toBe(markdown);
  });

  it('keeps a table of numbers that is no gutter, and code whose lines are numbers', () => {
    expect(
      toMarkdown('<table><tr><td>1</td><td>one</td></tr><tr><td>2</td><td>two</td></tr></table>', URL),
    ).toBe('| 1 | one |\n| --- | --- |\n| 2 | two |');
    expect(toMarkdown('<pre><code class="language-text">1\n2\n3</code></pre>', URL)).toBe(
      '```text\n1\n2\n3\n```',
    );
  });

  it('keeps a list that follows another list a list of its own', () => {
    const markdown = toMarkdown(
      '<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul><ol start="3"><li>three</li><li>four</li></ol><ul><li>five</li></ul>',
      URL,
    );
    expect(markdown).toBe('- one\n- two\n\t- nested\n\n3. three\n4. four\n\n- five');
    const lists: string[] = [];
    parser
      .configure(GFM)
      .parse(markdown)
      .iterate({
        enter: (node) => {
          if (node.name === 'BulletList' || node.name === 'OrderedList') {
            lists.push(node.name);
            return false;
          }
          return undefined;
        },
      });
    expect(lists).toEqual(['BulletList', 'OrderedList', 'BulletList']);
  });

  it('writes a list item that opens with a checkbox as a task, checked or not', () => {
    expect(
      toMarkdown(
        '<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> open</li><li>plain <input type="checkbox"></li></ul>',
        URL,
      ),
    ).toBe('- [x] done\n- [ ] open\n- plain');
  });

  it('writes an image given by srcset alone with its largest candidate', () => {
    expect(toMarkdown('<p><img srcset="/b-1x.png 1x, /b-2x.png 2x" alt="B"></p>', URL)).toBe(
      '![B](https://example.com/b-2x.png)',
    );
  });

  it("writes a heading's link to itself as the heading's text", () => {
    expect(toMarkdown('<h2 id="syntax"><a href="#syntax">Syntax</a></h2><p>x</p>', URL)).toBe(
      '## Syntax\n\nx',
    );
  });

  it('spreads merged cells so that the table is a Markdown table', () => {
    const html =
      '<table><tr><th colspan="2">Name</th><th>Age</th></tr>' +
      '<tr><td rowspan="2">Ada</td><td>L.</td><td>36</td></tr><tr><td>B.</td><td>37</td></tr></table>';
    expect(toMarkdown(html, URL)).toBe(
      ['| Name |  | Age |', '| --- | --- | --- |', '| Ada | L. | 36 |', '|  | B. | 37 |'].join('\n'),
    );
  });

  it('leaves a table whose spans are absurd as it is, and its markup inert', () => {
    const markdown = toMarkdown(
      '<table><tr><td colspan="1000000">&lt;img src=x onerror=alert(1)&gt;</td></tr></table>',
      URL,
    );
    expect(markdown).not.toMatch(/(^|[^\\])<img/);
    expect(markdown).toContain('onerror=alert(1)');
  });
});
