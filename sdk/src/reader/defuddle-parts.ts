/**
 * The parts of defuddle (pinned to 0.19) the reader uses besides its `defuddle/node` entry: its
 * Markdown serializer, the one every reader's HTML goes through (tables, fenced code with the
 * language, math as LaTeX, footnotes, callouts), and its registry of site extractors, to know
 * before running it whether defuddle knows the page's site. The package's export map does not
 * list them, so they are loaded by path from its `dist/` (CommonJS); the reader's corpus test
 * fails if an upgrade moves them.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

interface MarkdownModule {
  createMarkdownContent(html: string, url: string): string;
}

interface RegistryModule {
  ExtractorRegistry: {
    findExtractor(document: Document, url: string, schemaOrgData?: unknown): unknown;
  };
}

const require = createRequire(import.meta.url);

// Loaded on the first page read, not with the reader: a host that never reads a page never pays for them.
let markdownModule: MarkdownModule | undefined;
let registryModule: RegistryModule | undefined;
const fromDist = (file: string): unknown =>
  require(path.join(path.dirname(require.resolve('defuddle')), file));
const markdownParts = () => (markdownModule ??= fromDist('markdown.js') as MarkdownModule);
const registryParts = () => (registryModule ??= fromDist('extractor-registry.js') as RegistryModule);

/** What defuddle prints when its serializer threw: the raw HTML follows it. */
const FAILED_CONVERSION = 'Partial conversion completed with errors.';

/**
 * HTML → Markdown with defuddle's serializer, or null when it failed. It reports a failure on
 * `console.log`, which under `vmark mcp` is the protocol's stdout: the call runs (synchronously)
 * with `console.log` sent to stderr.
 */
export function defuddleMarkdown(html: string, url: string): string | null {
  const log = console.log;
  console.log = console.error;
  try {
    const markdown = markdownParts().createMarkdownContent(html, url);
    return markdown.startsWith(FAILED_CONVERSION) ? null : markdown;
  } catch {
    return null;
  } finally {
    console.log = log;
  }
}

/** Whether one of defuddle's own site extractors (Hacker News, Reddit, GitHub, …) claims the page. */
export function defuddleKnowsSite(document: Document, url: string): boolean {
  try {
    return registryParts().ExtractorRegistry.findExtractor(document, url) != null;
  } catch {
    return false;
  }
}
