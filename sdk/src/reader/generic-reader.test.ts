import { describe, expect, it } from 'vitest';
import { readPage } from './generic-reader.js';

const words = (n: number) => 'A sentence of the article that a reader keeps as its text. '.repeat(n);

describe('readPage', () => {
  it('reads a page with code by defuddle alone, its author from where the page marks it', async () => {
    const html =
      '<!doctype html><html><head><title>Parsing in Rust | Blog</title></head><body><article>' +
      `<h1>Parsing in Rust</h1><div class="byline">Written by <span rel="author">Ann Author</span></div><p>${words(8)}</p>` +
      `<pre><code class="language-rust">fn main() {}</code></pre><p>${words(8)}</p></article></body></html>`;
    const result = await readPage(html, 'https://blog.example.com/parsing');
    expect(result).toMatchObject({ title: 'Parsing in Rust', byline: 'Ann Author' });
    expect(result.markdown).toContain('```rust\nfn main() {}\n```');
  });
});
