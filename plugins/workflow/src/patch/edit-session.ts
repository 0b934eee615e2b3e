/**
 * One patch's view of the text: the CST tokens yaml's `Parser` made of it, the layout
 * read from them, and printing back with `CST.stringify`. Each patch gets a fresh parse of
 * the previous patch's output, so every edit starts from tokens the parser itself laid out;
 * composing those same tokens tells whether the text is valid YAML at all.
 */
import { CST, Composer, Parser, parseDocument } from 'yaml';
import type { Token } from './cst-tokens.js';
import { rootRef, type MapRef } from './cst-lookup.js';
import { detectLayout, type Layout } from './layout.js';

export interface EditSession {
  readonly tokens: readonly Token[];
  /** Absent for a file holding nothing but comments or blank lines. */
  readonly document: CST.Document | undefined;
  readonly layout: Layout;
  /** The top-level mapping, if the document has one. */
  readonly root: MapRef | undefined;
  /** yaml's first error for the text, on one line; undefined when it parses cleanly. */
  readonly problem: string | undefined;
}

/** The first error, worded by `parseDocument` (with line and column). Only run on failure. */
function describeProblem(text: string): string {
  const [error] = parseDocument(text).errors;
  const message = error?.message ?? 'the YAML does not parse';
  return (message.split('\n')[0] ?? message).replace(/:$/, '');
}

function problemOf(text: string, tokens: readonly Token[]): string | undefined {
  // Composing does not touch the tokens; it finds what the parser alone cannot (duplicate
  // keys, bad indentation, several documents).
  const composed = [...new Composer().compose(tokens)];
  if (composed.length > 1) return `the text holds ${composed.length} YAML documents; a workflow is one`;
  return composed.some((doc) => doc.errors.length > 0) ? describeProblem(text) : undefined;
}

export function openSession(text: string): EditSession {
  const tokens = [...new Parser().parse(text)];
  const document = tokens.find((token): token is CST.Document => token.type === 'document');
  return {
    tokens,
    document,
    layout: detectLayout(text, document),
    root: document ? rootRef(document) : undefined,
    problem: problemOf(text, tokens),
  };
}

export function printSession(session: EditSession): string {
  return session.tokens.map((token) => CST.stringify(token)).join('');
}
