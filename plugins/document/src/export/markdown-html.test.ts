import { describe, expect, it } from 'vitest';
import { markdownToHtml } from './markdown-html.js';

const render = (text: string) =>
  markdownToHtml(text, { image: (src, alt, embed) => `[img ${embed ? 'embed ' : ''}${src} ${alt}]` });

describe('markdownToHtml', () => {
  it('renders headings, emphasis, code, links, lists and quotes', () => {
    expect(render('# Title *here*\n\nSome **bold**, `a<b`, [link](https://x.y "t").\n')).toBe(
      '<h1>Title <em>here</em></h1>\n<p>Some <strong>bold</strong>, <code>a&#60;b</code>, <a href="https://x.y">link</a>.</p>\n',
    );
    expect(render('- one\n- two\n\n1. a\n2. b\n')).toBe(
      '<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n',
    );
    expect(render('> quoted\n> on\n')).toBe('<blockquote>\n<p>quoted\non</p>\n</blockquote>\n');
  });

  it('renders GFM: tables, strikethrough, task lists, fenced code', () => {
    expect(render('| a | b |\n| - | - |\n| 1 | 2 |\n')).toBe(
      '<table>\n<tr><th>a</th><th>b</th></tr>\n<tr><td>1</td><td>2</td></tr>\n</table>\n',
    );
    expect(render('~~gone~~\n')).toBe('<p><del>gone</del></p>\n');
    expect(render('- [x] done\n- [ ] todo\n')).toContain('<input type="checkbox" disabled checked> done');
    expect(render('```js\nlet a = "<b>";\n```\n')).toBe(
      '<pre><code class="language-js">let a = &#34;&#60;b&#62;&#34;;\n</code></pre>\n',
    );
  });

  it('hands images and embeds to the exporter', () => {
    expect(render('![alt](a%20b.png)\n\n![[pic.png|x]]\n')).toBe(
      '<p>[img a%20b.png alt]</p>\n<p>[img embed pic.png x]</p>\n',
    );
  });

  it('sanitizes raw HTML: scripts, handlers and iframes become text; plain formatting tags stay', () => {
    const html = render(
      '<script>alert(1)</script>\n\nText <b onclick="x()">bold</b> <img src=x onerror=alert(1)>\n\n<iframe src="https://evil"></iframe>\n',
    );
    expect(html).not.toMatch(/<script|<img|<iframe|<[^>]*\son[a-z]+=/);
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('<b>bold</b>');
  });

  it('drops javascript: links and leaves front matter out', () => {
    expect(render('[x](javascript:alert(1))\n')).toBe('<p>x</p>\n');
    expect(render('---\ntitle: a\n---\n# Body\n')).toBe('<h1>Body</h1>\n');
  });
});
