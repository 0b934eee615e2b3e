/**
 * Pages are parsed in the host with linkedom: a DOM without scripts, layout or network, so
 * nothing in the page runs and nothing is fetched while it is read.
 */
import { createRequire } from 'node:module';
import type * as LinkedomModule from 'linkedom';

type Linkedom = typeof LinkedomModule;

// Required on the first parse, not when the reader is imported: linkedom and its parser are a
// megabyte of modules a host start should not pay for.
const require = createRequire(import.meta.url);
let linkedom: Linkedom | undefined;
const parseHTML: Linkedom['parseHTML'] = (html) =>
  (linkedom ??= require('linkedom') as Linkedom).parseHTML(html);

/**
 * Elements nested deeper than this are flattened to their text: a page of 10,000 nested tables
 * must not overflow the stack of a recursive walk (in the readers or the Markdown serializer).
 */
export const MAX_DEPTH = 200;

/** A parsed document of `html`, its deepest nesting flattened below `MAX_DEPTH`. */
export function parseHtml(html: string): Document {
  let document = parse(html);
  // linkedom builds no <html>, <head> or <body> around a fragment (or nothing): give it them.
  if (document.documentElement?.tagName !== 'HTML' || !document.head || !document.body)
    document = parse(`<!doctype html><html><head></head><body>${html}</body></html>`);
  flattenDeepNesting(document);
  return document;
}

function parse(html: string): Document {
  return (parseHTML(html) as unknown as { document: Document }).document;
}

function flattenDeepNesting(document: Document): void {
  const root = document.documentElement;
  if (!root) return;
  // Iterative depth-first walk: the recursion this guards against must not happen here either.
  const stack: Array<[Element, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [element, depth] = stack.pop()!;
    if (depth >= MAX_DEPTH) {
      element.replaceChildren(document.createTextNode(element.textContent ?? ''));
      continue;
    }
    for (const child of Array.from(element.children)) stack.push([child, depth + 1]);
  }
}
