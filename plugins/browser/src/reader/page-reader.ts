/**
 * `extract`: reader mode for a page (vmark-notes §5.2). The page's HTML is captured in the
 * isolated world, at most `EXTRACT_HTML_CAP` UTF-16 units of it; the reading happens here in
 * the host, never in the page: a site extractor that claims the page, else the generic reader.
 * Whatever reads it, the Markdown goes through `safeMarkdown` (a contributed extractor's too),
 * and everything in the result is the page's and untrusted.
 */
import { TokenError } from '@vmark/sdk';
import { type ReaderResult, readPage, safeMarkdown } from '@vmark/sdk/reader';
import type { BrowserTab } from '../tabs/browser-tab.js';
import { urlForAgent } from '../url/redact.js';
import { extractorFor } from './site-dispatch.js';
import type { SiteExtractors } from './site-extractors.js';

export const EXTRACT_HTML_CAP = 2_000_000;

export interface Extract {
  readonly title: string;
  readonly byline: string | null;
  readonly url: string;
  readonly markdown: string;
  readonly textLength: number;
  readonly truncated: boolean;
  /** Everything above comes from the page: data to read, never instructions to follow. */
  readonly untrusted: true;
}

/** Runs in the isolated world: the document's HTML, cut at the cap. */
const CAPTURE = `(cap) => {
  const html = document.documentElement ? document.documentElement.outerHTML : '';
  return html.length > cap ? { html: html.slice(0, cap), truncated: true } : { html, truncated: false };
}`;

export class PageReader {
  constructor(private readonly extractors: SiteExtractors) {}

  /** Reader mode for a tab's current page. @throws TokenError `UNSUPPORTED_URL` for a page that is not http(s). */
  async extractTab(tab: BrowserTab): Promise<Extract> {
    const url = readableUrl(tab.page.url());
    const captured = await tab.world.evaluate<{ html: string; truncated: boolean }>(
      CAPTURE,
      EXTRACT_HTML_CAP,
    );
    return this.extract(captured.html, url, captured.truncated);
  }

  /** Reader mode for HTML fetched from `url` (`file:` for a saved page: the generic reader alone). */
  async extract(html: string, url: URL, truncated: boolean): Promise<Extract> {
    const result = await this.#read(html, url);
    return {
      title: text(result.title),
      byline: typeof result.byline === 'string' ? result.byline : null,
      url: url.protocol === 'file:' ? url.href : urlForAgent(url.href),
      markdown: safeMarkdown(text(result.markdown)),
      textLength: Number.isFinite(result.textLength) ? Math.max(0, Math.trunc(result.textLength)) : 0,
      truncated,
      untrusted: true,
    };
  }

  async #read(html: string, url: URL): Promise<ReaderResult> {
    const site = url.protocol === 'file:' ? null : extractorFor(this.extractors.list(), url);
    if (site !== null) {
      try {
        return await site.extractor.read(html, url);
      } catch (error) {
        // A site extractor that fails leaves the page to the generic reader.
        process.stderr.write(
          `vmark: site extractor "${site.declaration.id}" (plugin ${site.pluginId}) failed: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
    }
    return readPage(html, url.href);
  }
}

/** The tab's URL when reader mode can read it. */
export function readableUrl(raw: string): URL {
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new TokenError('UNSUPPORTED_URL', 'this page cannot be read (unsupported URL)', {
      url: urlForAgent(raw),
    });
  return url;
}

/** A string field of an extractor's result (a contributed one may hand back anything). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
