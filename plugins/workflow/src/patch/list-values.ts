/**
 * Writing a list of scalars over an existing sequence, element by element: an element that
 * already holds its new value is not touched, a changed one keeps its quoting, a flow
 * sequence stays flow and a block sequence stays block. New elements follow the style of
 * the last existing one.
 */
import { CST } from 'yaml';
import {
  attachItem,
  contentIndexes,
  dashGap,
  detachItem,
  isBlankSeparated,
  normalizeBlock,
} from './block-collection.js';
import { isFlowScalar, type Item, type SourceToken } from './cst-tokens.js';
import { flowAppend, flowContentIndexes, flowRemove } from './flow-collection.js';
import type { Layout } from './layout.js';
import {
  newScalar,
  styleOf,
  writeScalar,
  type ScalarToken,
  type ScalarType,
  type ScalarValue,
} from './scalar-style.js';
import { entryText, parseEntry } from './yaml-fragment.js';

function scalarToken(item: Item | undefined): ScalarToken | undefined {
  const value = item?.value;
  return value && (isFlowScalar(value) || value.type === 'block-scalar') ? value : undefined;
}

function lastStyle(items: readonly Item[], indexes: readonly number[]): ScalarType | undefined {
  const index = indexes[indexes.length - 1];
  const token = index === undefined ? undefined : scalarToken(items[index]);
  return token && token.type !== 'alias' ? styleOf(token) : undefined;
}

export function updateBlockList(
  node: CST.BlockSequence,
  lead: SourceToken[] | undefined,
  values: readonly ScalarValue[],
  layout: Layout,
): void {
  const view = normalizeBlock(node, lead);
  const separated = isBlankSeparated(node);
  const content = contentIndexes(node);
  const style = lastStyle(node.items, content);
  const column = node.indent;
  const gap = dashGap(node);
  const fresh = (value: ScalarValue): Item =>
    parseEntry(entryText(null, value, column, layout, { previous: style, dashGap: gap }), layout);
  const shared = Math.min(content.length, values.length);
  for (let j = 0; j < shared; j++) {
    const value = values[j] as ScalarValue;
    const token = scalarToken(node.items[contentIndexes(node)[j] as number]);
    if (token) writeScalar(token, value, { layout, inFlow: false, bodyIndent: column + 2 });
    else {
      // A mapping or sequence element gives way to the scalar as a whole new item.
      detachItem(view, j);
      attachItem(view, j, fresh(value), layout, separated);
    }
  }
  for (let j = shared; j < values.length; j++)
    attachItem(view, j, fresh(values[j] as ScalarValue), layout, separated);
  for (let j = content.length - 1; j >= values.length; j--) detachItem(view, j);
}

export function updateFlowList(
  node: CST.FlowCollection,
  values: readonly ScalarValue[],
  layout: Layout,
): void {
  const context = { layout, inFlow: true, bodyIndent: 0 };
  const content = flowContentIndexes(node);
  const style = lastStyle(node.items, content);
  const shared = Math.min(content.length, values.length);
  for (let j = 0; j < shared; j++) {
    const item = node.items[content[j] as number] as Item;
    const value = values[j] as ScalarValue;
    const token = scalarToken(item);
    if (token) writeScalar(token, value, context);
    else item.value = newScalar(value, context, [], style);
  }
  for (let j = shared; j < values.length; j++)
    flowAppend(node, { start: [], value: newScalar(values[j] as ScalarValue, context, [], style) });
  for (let j = content.length - 1; j >= values.length; j--) flowRemove(node, j);
}

/** Adds one scalar at the end of a sequence, leaving the other elements untouched. */
export function appendListElement(
  node: CST.BlockSequence | CST.FlowCollection,
  lead: SourceToken[] | undefined,
  value: ScalarValue,
  layout: Layout,
): void {
  if (node.type === 'flow-collection') {
    const style = lastStyle(node.items, flowContentIndexes(node));
    flowAppend(node, {
      start: [],
      value: newScalar(value, { layout, inFlow: true, bodyIndent: 0 }, [], style),
    });
    return;
  }
  const view = normalizeBlock(node, lead);
  const content = contentIndexes(node);
  const entry = entryText(null, value, node.indent, layout, {
    previous: lastStyle(node.items, content),
    dashGap: dashGap(node),
  });
  attachItem(view, content.length, parseEntry(entry, layout), layout, isBlankSeparated(node));
}

/** Removes the element at `position` (with the comment lines above it, in block form). */
export function removeListElement(
  node: CST.BlockSequence | CST.FlowCollection,
  lead: SourceToken[] | undefined,
  position: number,
): void {
  if (node.type === 'flow-collection') flowRemove(node, position);
  else detachItem(normalizeBlock(node, lead), position);
}

/** The elements as strings (what `needs` compares), undefined for an alias or collection. */
export function listStrings(node: CST.BlockSequence | CST.FlowCollection): (string | undefined)[] {
  const indexes = node.type === 'flow-collection' ? flowContentIndexes(node) : contentIndexes(node);
  return indexes.map((index) => {
    const token = scalarToken(node.items[index]);
    return token && token.type !== 'alias'
      ? CST.resolveAsScalar(token, true, () => undefined)?.value
      : undefined;
  });
}
