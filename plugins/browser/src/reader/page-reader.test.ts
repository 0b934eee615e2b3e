import { readPage, type SiteExtractor } from '@vmark/sdk/reader';
import { describe, expect, it } from 'vitest';
import { PageReader, readableUrl } from './page-reader.js';
import type { RegisteredExtractor } from './site-dispatch.js';

const HTML =
  '<!doctype html><html><head><title>Notes</title></head><body><article><h1>Notes</h1>' +
  '<p>The generic reader reads this paragraph about lighthouses, keepers and the long nights at sea.</p></article></body></html>';

function readerWith(read: SiteExtractor['read']): PageReader {
  const registered: RegisteredExtractor = {
    pluginId: 'site-test',
    declaration: { id: 'test', origins: ['https://example.com'], capabilities: ['read'], minAgentApi: 1 },
    extractor: { id: 'test', match: () => true, read },
  };
  return new PageReader({ list: () => [registered] });
}

describe('PageReader', () => {
  it("answers with the site extractor's result, made safe, its URL redacted and marked untrusted", async () => {
    const reader = readerWith((_html, url) => ({
      title: 'Site',
      byline: 'Ada',
      url: url.href,
      markdown: '---\ntitle: fake\n---\n<script>x</script> body',
      textLength: 12.7,
    }));
    const result = await reader.extract(HTML, new URL('https://example.com/a?session=s3cret#frag'), false);
    expect(result).toEqual({
      title: 'Site',
      byline: 'Ada',
      url: 'https://example.com/a',
      markdown: 'title: fake\n---\n\\<script>x\\</script> body',
      textLength: 12,
      truncated: false,
      untrusted: true,
    });
  });

  it('leaves the page to the generic reader when the site extractor throws', async () => {
    const reader = readerWith(() => {
      throw new Error('layout changed');
    });
    const url = 'https://example.com/a';
    const result = await reader.extract(HTML, new URL(url), true);
    const generic = await readPage(HTML, url);
    expect(result).toMatchObject({ title: generic.title, markdown: generic.markdown, truncated: true });
  });

  it('reads a saved file with the generic reader alone, whatever claims its name', async () => {
    const reader = readerWith(() => ({
      title: 'never',
      byline: null,
      url: '',
      markdown: 'never',
      textLength: 0,
    }));
    const result = await reader.extract(HTML, new URL('file:///home/ada/notes.html'), false);
    expect(result.title).toBe('Notes');
    expect(result.url).toBe('file:///home/ada/notes.html');
  });

  it('keeps only the fields of the contract, typed, from what an extractor hands back', async () => {
    const reader = readerWith(
      () => ({ title: 7, byline: { a: 1 }, url: '', markdown: null, textLength: NaN }) as never,
    );
    expect(await reader.extract(HTML, new URL('https://example.com/'), false)).toEqual({
      title: '',
      byline: null,
      url: 'https://example.com/',
      markdown: '',
      textLength: 0,
      truncated: false,
      untrusted: true,
    });
  });
});

describe('readableUrl', () => {
  it.each(['about:blank', 'data:text/html,x', 'file:///etc/passwd', 'chrome://settings', 'not a url'])(
    'refuses %s as a page reader mode cannot read',
    (raw) => {
      expect(() => readableUrl(raw)).toThrow('this page cannot be read (unsupported URL)');
    },
  );

  it('takes http and https pages', () => {
    expect(readableUrl('http://127.0.0.1:8080/a').href).toBe('http://127.0.0.1:8080/a');
  });
});
