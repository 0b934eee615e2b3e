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
