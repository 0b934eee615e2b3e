/**
 * New content is written as YAML text in the file's layout and read back with yaml's own
 * `Parser`, so what gets spliced into the document CST are genuine parser tokens rather
 * than hand-assembled ones.
 */
import { Parser } from 'yaml';
import { isTriviaItem, type Item, type SourceToken, type Token } from './cst-tokens.js';
import type { Layout } from './layout.js';
import { applyNewline, scalarText, type ScalarType } from './scalar-style.js';
import { isScalarValue, isYamlList, type YamlValue } from './yaml-value.js';

/** Beyond this a new string list is written as a block sequence rather than `[a, b]`. */
const FLOW_LINE_LIMIT = 80;

function keyText(key: string, layout: Layout): string {
  return scalarText(key, { layout, inFlow: false, implicitKey: true, bodyIndent: 0 });
}

/** The flow form (`[a, b]`, `{k: v}`) of a value. */
function flowText(value: YamlValue, layout: Layout): string {
  if (isScalarValue(value)) return scalarText(value, { layout, inFlow: true, bodyIndent: 0 });
  if (isYamlList(value)) return `[${value.map((item) => flowText(item, layout)).join(', ')}]`;
  const entries = Object.entries(value).map(
    ([key, item]) =>
      `${scalarText(key, { layout, inFlow: true, implicitKey: true, bodyIndent: 0 })}: ${flowText(item, layout)}`,
  );
  return `{${entries.join(', ')}}`;
}

export interface EntryStyle {
  /** Style of the scalar a new list element follows, to match it. */
  readonly previous?: ScalarType;
  /** Spaces after a sequence item's dash (`-   name:` has 3), as the sibling items have. */
  readonly dashGap?: number;
}

/**
 * `key: value` (or `- value` when `key` is null) as lines starting at `column`, each ending
 * in `\n`. Nested mappings go one indentation step in, sequences by the file's sequence
 * indentation, and a mapping inside a sequence item starts on the dash's line.
 */
export function entryText(
  key: string | null,
  value: YamlValue,
  column: number,
  layout: Layout,
  { previous, dashGap = 1 }: EntryStyle = {},
): string {
  const pad = ' '.repeat(column);
  const head = key === null ? `${pad}-${' '.repeat(dashGap)}` : `${pad}${keyText(key, layout)}:`;
  const gap = key === null ? '' : ' ';
  const childColumn = key === null ? column + 1 + dashGap : column + layout.indentStep;
  if (isScalarValue(value)) {
    const text = scalarText(value, { layout, inFlow: false, bodyIndent: childColumn }, previous);
    return `${head}${gap}${text}${text.endsWith('\n') ? '' : '\n'}`;
  }
  if (isYamlList(value)) {
    const flow = flowText(value, layout);
    const flowFits = value.every(isScalarValue) && head.length + gap.length + flow.length <= FLOW_LINE_LIMIT;
    if (value.length === 0 || flowFits || key === null) return `${head}${gap}${flow}\n`;
    const seqColumn = column + layout.seqIndent;
    return `${head}\n${value.map((item) => entryText(null, item, seqColumn, layout)).join('')}`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return `${head}${gap}{}\n`;
  const body = entries.map(([childKey, item]) => entryText(childKey, item, childColumn, layout)).join('');
  // In a sequence item the first key shares the dash's line.
  return key === null ? `${head}${body.slice(childColumn)}` : `${head}\n${body}`;
}

function parseDocumentValue(text: string): { start: SourceToken[]; value: Token | undefined } {
  const tokens = [...new Parser().parse(text)];
  const document = tokens.find((token) => token.type === 'document');
  if (!document || document.type !== 'document' || tokens.some((token) => token.type === 'error'))
    throw new Error(`internal: generated YAML did not parse: ${JSON.stringify(text)}`);
  return { start: document.start, value: document.value };
}

/** The single block-collection item that `entryText` wrote, its indentation in `start`. */
export function parseEntry(text: string, layout: Layout): Item {
  const { start, value } = parseDocumentValue(applyNewline(text, layout));
  if (value?.type !== 'block-map' && value?.type !== 'block-seq')
    throw new Error(`internal: generated entry is not a collection item: ${JSON.stringify(text)}`);
  const items = value.items.filter((item) => !isTriviaItem(item));
  const [item] = items;
  if (!item || items.length !== 1)
    throw new Error(`internal: generated entry is not one item: ${JSON.stringify(text)}`);
  item.start = [...start, ...item.start];
  return item;
}

/** The token of a value written in flow form (for flow collections). */
export function parseFlowValue(value: YamlValue, layout: Layout): Token {
  const { value: collection } = parseDocumentValue(`[${flowText(value, layout)}]`);
  const item = collection?.type === 'flow-collection' ? collection.items[0] : undefined;
  if (!item?.value) throw new Error('internal: generated flow value did not parse');
  return item.value;
}
