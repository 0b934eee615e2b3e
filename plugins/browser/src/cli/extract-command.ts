/**
 * `vmark extract URL|FILE [--json]`: reader mode at a terminal, the same result `browser_read
 * extract` gives. A URL is opened in a sandbox page of the browser, behind the same network
 * guard as an AI's navigation (the person typed it, so nothing needs approving); a file is a
 * saved page, read from disk with the same cap on its size, and read as the page it was saved
 * from when it names one.
 */
import { open } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { defineCommandLine, errorCode, runCommandLine, type CliCommand, type CommandIo } from '@vmark/sdk';
import { parseHtml } from '@vmark/sdk/reader';
import type { BrowserSettings } from '../browser-settings.js';
import type { BrowserEngine } from '../engine/browser-engine.js';
import type { Resolver } from '../guard/resolver.js';
import { checkTarget } from '../guard/target-policy.js';
import { settle } from '../navigation/navigation-result.js';
import { EXTRACT_HTML_CAP, type Extract, type PageReader } from '../reader/page-reader.js';
import { BrowserTab } from '../tabs/browser-tab.js';

/** The command line `vmark extract --help` shows and the parser accepts. */
export const EXTRACT_COMMAND_LINE = defineCommandLine({
  command: 'vmark extract',
  options: {
    json: { type: 'boolean', description: 'print the result as JSON, as browser_read extract answers' },
  },
  forms: [
    {
      operands: ['URL|FILE'],
      options: ['json'],
      description:
        'an http(s) page (opened in a sandbox tab, behind the network guard) or a saved HTML file, in reader mode (Markdown)',
    },
  ],
});

/** How long a page may take to load. */
const LOAD_MS = 30_000;

export interface ExtractCommandServices {
  readonly engine: BrowserEngine;
  readonly resolver: Resolver;
  readonly settings: BrowserSettings;
  readonly reader: PageReader;
}

/** A page or file that could not be read: said on stderr, exit 1. */
class ExtractFailed extends Error {}

export function extractCommand(services: ExtractCommandServices): CliCommand {
  return {
    name: 'extract',
    run: (argv, io) =>
      runCommandLine(EXTRACT_COMMAND_LINE, argv, io, async ({ operands, values }) => {
        try {
          const result = await extract(operands[0]!, io, services);
          io.out(values.json ? `${JSON.stringify(result, null, 2)}\n` : readable(result));
          return 0;
        } catch (error) {
          if (!(error instanceof ExtractFailed)) throw error;
          io.err(`vmark extract: ${error.message}\n`);
          return 1;
        }
      }),
  };
}

async function extract(target: string, io: CommandIo, services: ExtractCommandServices): Promise<Extract> {
  if (/^https?:\/\//i.test(target)) return extractUrl(target, services);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target))
    throw new ExtractFailed('this page cannot be read (unsupported URL): only http(s) pages and files');
  const file = path.resolve(io.cwd, target);
  const { html, truncated } = await readCapped(file);
  return services.reader.extract(html, savedFrom(html) ?? pathToFileURL(file), truncated);
}

/**
 * The page a saved file was saved from, when it says so (`<link rel="canonical">`, which browsers
 * and "save page" tools keep): its links resolve against it and its site's extractor reads it.
 */
function savedFrom(html: string): URL | null {
  const href = parseHtml(html).querySelector('link[rel="canonical"][href]')?.getAttribute('href');
  if (!href) return null;
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

async function extractUrl(url: string, services: ExtractCommandServices): Promise<Extract> {
  const verdict = await checkTarget(url, services.resolver, {
    allowPrivateNetwork: services.settings.allowPrivateNetwork(),
  });
  if (!verdict.allowed) throw new ExtractFailed(`the page may not be opened: ${verdict.reason}`);
  const { page, context } = await services.engine.newPage('sandbox');
  const tab = new BrowserTab('extract', 'cli', 'sandbox', page, context);
  try {
    const outcome = await settle(tab.navigate(url), LOAD_MS);
    if (outcome === 'timeout') throw new ExtractFailed(`the page did not load within ${LOAD_MS / 1000} s`);
    if (outcome.kind === 'refused') throw new ExtractFailed(`the page may not be opened: ${outcome.reason}`);
    if (outcome.kind === 'failed') throw new ExtractFailed(`the page could not be loaded: ${outcome.error}`);
    if (outcome.kind === 'superseded') throw new ExtractFailed('the page navigated away while loading');
    return await services.reader.extractTab(tab);
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** At most the cap's worth of a regular file (never a FIFO or device), as text. */
async function readCapped(file: string): Promise<{ html: string; truncated: boolean }> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new ExtractFailed(`cannot read ${file}: ${errorCode(error) ?? String(error)}`);
  }
  try {
    if (!(await handle.stat()).isFile()) throw new ExtractFailed(`not a regular file: ${file}`);
    // UTF-8 takes at most 3 bytes per UTF-16 unit: this many bytes hold the cap.
    const buffer = Buffer.alloc(EXTRACT_HTML_CAP * 3 + 3);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    return text.length > EXTRACT_HTML_CAP
      ? { html: text.slice(0, EXTRACT_HTML_CAP), truncated: true }
      : { html: text, truncated: bytesRead === buffer.length };
  } finally {
    await handle.close();
  }
}

function readable(result: Extract): string {
  const notes = [`${result.textLength} characters`, ...(result.truncated ? ['truncated'] : [])].join(', ');
  const head = [
    `# ${result.title || '(untitled)'}`,
    ...(result.byline ? [result.byline] : []),
    `${result.url} (${notes})`,
  ];
  return `${head.join('\n')}\n\n${result.markdown}\n`;
}
