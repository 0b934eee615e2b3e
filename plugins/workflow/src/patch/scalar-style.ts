/**
 * How a scalar is written. An edited scalar keeps its style (quotes, block `|`/`>`) when
 * the new value allows it; a new one is plain when plain text reads back as the very same
 * value (so "20" or "true" get quoted, 20 and true do not), a block literal when it spans
 * lines, and otherwise quoted in the quote the file already favours.
 */
import { CST, isMap, isScalar, isSeq, parseDocument, type Scalar } from 'yaml';
import type { Layout } from './layout.js';

export type ScalarValue = string | number | boolean | null;
export type ScalarType = Scalar.Type;
export type ScalarToken = CST.FlowScalar | CST.BlockScalar;

export interface ScalarContext {
  readonly layout: Layout;
  readonly inFlow: boolean;
  readonly implicitKey?: boolean;
  /** Column of a block scalar's body when one has to be written from scratch. */
  readonly bodyIndent: number;
}

/** The text YAML's core schema reads back as this non-string value. */
function canonicalText(value: number | boolean | null): string {
  return value === null ? 'null' : String(value);
}

const textOf = (value: ScalarValue): string => (typeof value === 'string' ? value : canonicalText(value));

/**
 * Whether `source`, written where the context says, reads back as `value` (type included).
 * Asking the parser beats re-implementing the core schema's resolution rules.
 */
function readsBackAs(
  source: string,
  value: ScalarValue,
  { inFlow, implicitKey = false }: Pick<ScalarContext, 'inFlow' | 'implicitKey'>,
): boolean {
  const text = inFlow ? `[${source}]` : implicitKey ? `${source}: x` : `x: ${source}`;
  const doc = parseDocument(text);
  if (doc.errors.length > 0 || doc.warnings.length > 0) return false;
  const contents = doc.contents;
  let node: unknown;
  if (inFlow) node = isSeq(contents) && contents.items.length === 1 ? contents.items[0] : undefined;
  else if (isMap(contents) && contents.items.length === 1) {
    const pair = contents.items[0];
    node = implicitKey ? pair?.key : pair?.value;
  }
  return isScalar(node) && node.value === value;
}

function plainIsSafe(value: string, context: ScalarContext): boolean {
  if (value === '' || value.includes('\n')) return false;
  const token = CST.createScalarToken(value, {
    type: 'PLAIN',
    inFlow: context.inFlow,
    implicitKey: context.implicitKey ?? false,
    indent: 0,
    end: [],
  });
  return token.type === 'scalar' && readsBackAs(token.source, value, context);
}

export function styleOf(token: ScalarToken): ScalarType | undefined {
  switch (token.type) {
    case 'scalar':
      return 'PLAIN';
    case 'single-quoted-scalar':
      return 'QUOTE_SINGLE';
    case 'double-quoted-scalar':
      return 'QUOTE_DOUBLE';
    case 'block-scalar':
      return token.props[0]?.type === 'block-scalar-header' && token.props[0].source.startsWith('>')
        ? 'BLOCK_FOLDED'
        : 'BLOCK_LITERAL';
    default:
      return undefined;
  }
}

/** The style a value is written in, given the style of what it replaces (if anything). */
function chooseStyle(value: ScalarValue, context: ScalarContext, previous?: ScalarType): ScalarType {
  if (typeof value !== 'string') return 'PLAIN';
  const blockAllowed = !context.inFlow && !(context.implicitKey ?? false);
  // Quoted styles can carry any string (yaml switches single to double by itself when a
  // single-quoted form is impossible), block styles any string outside flow and keys.
  if (previous === 'QUOTE_DOUBLE' || previous === 'QUOTE_SINGLE') return previous;
  if ((previous === 'BLOCK_LITERAL' || previous === 'BLOCK_FOLDED') && blockAllowed) return previous;
  if (value.includes('\n') && blockAllowed) return 'BLOCK_LITERAL';
  if (plainIsSafe(value, context)) return 'PLAIN';
  if (value.includes('"') && !value.includes("'")) return 'QUOTE_SINGLE';
  if (value.includes("'") && !value.includes('"')) return 'QUOTE_DOUBLE';
  return context.layout.quote;
}

/** Line breaks yaml writes are `\n`; a CRLF file gets CRLF in everything this module adds. */
export function applyNewline(text: string, layout: Layout): string {
  return layout.newline === '\n' ? text : text.replace(/\r?\n/g, layout.newline);
}

function fixNewlines(token: ScalarToken, layout: Layout): void {
  if (layout.newline === '\n') return;
  token.source = applyNewline(token.source, layout);
  const extra = token.type === 'block-scalar' ? token.props : (token.end ?? []);
  for (const part of extra) if ('source' in part) part.source = applyNewline(part.source, layout);
}

/** Whether the existing token already holds `value` (then it is left byte-identical). */
function scalarEquals(token: ScalarToken, value: ScalarValue, context: ScalarContext): boolean {
  if (token.type === 'alias') return false;
  if (token.type === 'scalar') return readsBackAs(token.source, value, context);
  return typeof value === 'string' && CST.resolveAsScalar(token)?.value === value;
}

function bodyIndentOf(token: CST.BlockScalar): number | undefined {
  const line = token.source.split('\n').find((text) => text.trim() !== '');
  return line === undefined ? undefined : line.length - line.trimStart().length;
}

/**
 * Rewrites a scalar token in place through `CST.setScalarValue`, so its trailing comment
 * and everything around it stay. A block scalar keeps the indentation of its body.
 * Returns false (and touches nothing) when the token already holds the value.
 */
export function writeScalar(token: ScalarToken, value: ScalarValue, context: ScalarContext): boolean {
  if (scalarEquals(token, value, context)) return false;
  const previous = token.type === 'alias' ? undefined : styleOf(token);
  const type = chooseStyle(value, context, previous);
  const existing = token.type === 'block-scalar' ? bodyIndentOf(token) : undefined;
  const savedIndent = token.indent;
  // setScalarValue indents a block body by the token's `indent`; lend it the body column.
  token.indent = existing ?? context.bodyIndent;
  CST.setScalarValue(token, textOf(value), {
    type,
    inFlow: context.inFlow,
    implicitKey: context.implicitKey ?? false,
  });
  token.indent = savedIndent;
  fixNewlines(token, context.layout);
  return true;
}

/** A fresh scalar token, `end` being what follows it on its line (comment, line break). */
export function newScalar(
  value: ScalarValue,
  context: ScalarContext,
  end: CST.SourceToken[] = [],
  previous?: ScalarType,
): ScalarToken {
  const token = CST.createScalarToken(textOf(value), {
    type: chooseStyle(value, context, previous),
    inFlow: context.inFlow,
    implicitKey: context.implicitKey ?? false,
    indent: context.bodyIndent,
    end,
  });
  fixNewlines(token, context.layout);
  return token;
}

/** The printed text of a fresh scalar (block scalars include their body and final line break). */
export function scalarText(value: ScalarValue, context: ScalarContext, previous?: ScalarType): string {
  return CST.stringify(newScalar(value, context, [], previous));
}
