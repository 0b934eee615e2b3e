/**
 * Setting and deleting a mapping's entries. A scalar over a scalar is rewritten in place
 * (`CST.setScalarValue`); a list over a sequence is updated element by element; a mapping
 * over a mapping entry by entry; anything else replaces the entry's value with a freshly
 * parsed one, keeping the key, its anchor or tag, and the comment on the key's line.
 */
import { CST } from 'yaml';
import {
  attachItem,
  contentIndexes,
  detachItem,
  isBlankSeparated,
  normalizeBlock,
} from './block-collection.js';
import {
  dropFinalNewline,
  endsWithNewline,
  isBlockMap,
  isBlockSeq,
  isFlowCollection,
  isFlowMap,
  isFlowScalar,
  isFlowSeq,
  leavesOfItem,
  sourceToken,
  spaceToken,
  type Item,
  type SourceToken,
} from './cst-tokens.js';
import { entryNames, findEntry, type MapRef } from './cst-lookup.js';
import {
  appendTrivia,
  cutTrailingTrivia,
  flowAppend,
  flowContentIndexes,
  flowRemove,
} from './flow-collection.js';
import type { Layout } from './layout.js';
import { updateBlockList, updateFlowList } from './list-values.js';
import { newScalar, writeScalar } from './scalar-style.js';
import { entryText, parseEntry, parseFlowValue } from './yaml-fragment.js';
import { isScalarValue, isYamlList, isYamlRecord, type YamlValue } from './yaml-value.js';

/**
 * Block maps are normalised before a structural edit (not for a scalar rewritten in place,
 * which moves no line); normalising keeps every content item, so lookups made before stay valid.
 */
function prepare(ref: MapRef): void {
  if (isBlockMap(ref.node)) normalizeBlock(ref.node, ref.lead, { root: ref.root === true });
}

export function getEntry(ref: MapRef, key: string): Item | undefined {
  const index = findEntry(ref, key);
  return index < 0 ? undefined : ref.node.items[index];
}

/** The part of an entry after its key, as an item, so its leaves point into the real arrays. */
const afterKey = (item: Item): Item => ({ start: [], sep: item.sep ?? [], value: item.value });

/** `# comment` on the key's own line (it stays when the value under the key is replaced). */
function keyLineComment(item: Item): SourceToken[] {
  const leaves = leavesOfItem(afterKey(item));
  for (let i = 0; i < leaves.length; i++) {
    const leaf = leaves[i];
    const token = leaf?.holder?.[leaf.index];
    if (token?.type === 'comment') {
      const before = i > 0 ? leaves[i - 1] : undefined;
      const space = before?.holder?.[before.index];
      return [
        space?.type === 'space' ? spaceToken(space.source.length) : spaceToken(1),
        sourceToken('comment', token.source),
      ];
    }
    if (leaf?.source.endsWith('\n')) break;
  }
  return [];
}

function insertBeforeFirstNewline(item: Item, tokens: readonly SourceToken[]): void {
  for (const leaf of leavesOfItem(afterKey(item))) {
    if (leaf.holder?.[leaf.index]?.type === 'newline') {
      leaf.holder.splice(leaf.index, 0, ...tokens);
      return;
    }
  }
}

function replaceBlockValue(ref: MapRef, item: Item, value: YamlValue, layout: Layout): void {
  prepare(ref);
  // The key is a stand-in: only the separator and value of the fragment are used.
  const fragment = parseEntry(entryText('x', value, ref.node.indent, layout), layout);
  const [colon, ...rest] = fragment.sep ?? [];
  if (!colon) throw new Error('internal: generated entry has no separator');
  const properties = (item.sep ?? []).filter((token) => token.type === 'anchor' || token.type === 'tag');
  const comment = keyLineComment(item);
  const hadNewline = endsWithNewline(leavesOfItem(item));
  item.sep = [colon, ...properties.flatMap((token) => [spaceToken(1), token]), ...rest];
  item.value = fragment.value;
  if (comment.length > 0) insertBeforeFirstNewline(item, comment);
  if (!hadNewline) dropFinalNewline(leavesOfItem(item));
}

function replaceFlowValue(item: Item, value: YamlValue, layout: Layout): void {
  const trailing = cutTrailingTrivia(item);
  item.value = parseFlowValue(value, layout);
  item.sep ??= [sourceToken('map-value-ind', ':'), spaceToken(1)];
  if (item.sep.length === 1) item.sep.push(spaceToken(1));
  appendTrivia(item, trailing);
}

function replaceValue(ref: MapRef, item: Item, value: YamlValue, layout: Layout): void {
  if (isFlowCollection(ref.node)) replaceFlowValue(item, value, layout);
  else replaceBlockValue(ref, item, value, layout);
}

function writeValue(ref: MapRef, item: Item, value: YamlValue, layout: Layout): void {
  const old = item.value;
  const inFlow = isFlowCollection(ref.node);
  if (isScalarValue(value)) {
    const emptyPlain = old?.type === 'scalar' && old.source === '';
    if (old && (isFlowScalar(old) || old.type === 'block-scalar') && !emptyPlain) {
      writeScalar(old, value, { layout, inFlow, bodyIndent: ref.node.indent + layout.indentStep });
      return;
    }
    replaceValue(ref, item, value, layout);
    return;
  }
  if (isYamlList(value) && value.every(isScalarValue)) {
    if (isFlowSeq(old)) {
      updateFlowList(old, value, layout);
      return;
    }
    if (isBlockSeq(old) && value.length > 0) {
      updateBlockList(old, item.sep, value, layout);
      return;
    }
  }
  if (isYamlRecord(value) && (isBlockMap(old) || isFlowMap(old))) {
    const names = Object.keys(value);
    if (names.length > 0 || isFlowMap(old)) {
      const child: MapRef = { node: old, lead: item.sep };
      for (const name of names) setEntry(child, name, value[name] as YamlValue, layout);
      for (const name of entryNames(child)) if (!Object.hasOwn(value, name)) deleteEntry(child, name);
      return;
    }
  }
  replaceValue(ref, item, value, layout);
}

function addEntry(ref: MapRef, key: string, value: YamlValue, layout: Layout): void {
  const node = ref.node;
  if (isFlowCollection(node)) {
    const context = { layout, inFlow: true, implicitKey: true, bodyIndent: 0 };
    flowAppend(node, {
      start: [],
      key: newScalar(key, context),
      sep: [sourceToken('map-value-ind', ':'), spaceToken(1)],
      value: parseFlowValue(value, layout),
    });
    return;
  }
  const view = normalizeBlock(node, ref.lead, { root: ref.root === true });
  const item = parseEntry(entryText(key, value, node.indent, layout), layout);
  attachItem(view, Number.POSITIVE_INFINITY, item, layout, isBlankSeparated(node));
}

/** Sets `key` to `value`, adding the entry at the end of the mapping when it is missing. */
export function setEntry(ref: MapRef, key: string, value: YamlValue, layout: Layout): void {
  const item = getEntry(ref, key);
  if (item) writeValue(ref, item, value, layout);
  else addEntry(ref, key, value, layout);
}

export type DeleteOutcome = 'absent' | 'removed' | 'emptied';

/**
 * Removes the entry with the lines above it. `emptied` tells the caller that the mapping
 * has no entries left, which a block mapping cannot print: the caller then removes or
 * replaces the mapping itself.
 */
export function deleteEntry(ref: MapRef, key: string): DeleteOutcome {
  prepare(ref);
  const index = findEntry(ref, key);
  if (index < 0) return 'absent';
  const node = ref.node;
  if (isFlowCollection(node)) {
    flowRemove(node, flowContentIndexes(node).indexOf(index));
    return flowContentIndexes(node).length === 0 ? 'emptied' : 'removed';
  }
  const view = normalizeBlock(node, ref.lead, { root: ref.root === true });
  detachItem(view, contentIndexes(node).indexOf(index));
  return contentIndexes(node).length === 0 ? 'emptied' : 'removed';
}

/** Reads a scalar entry's string (for `needs: build`), or undefined. */
export function scalarString(item: Item | undefined): string | undefined {
  const value = item?.value;
  if (!value || !(isFlowScalar(value) || value.type === 'block-scalar') || value.type === 'alias')
    return undefined;
  return CST.resolveAsScalar(value, true, () => undefined)?.value;
}
