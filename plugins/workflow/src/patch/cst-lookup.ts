/**
 * Finding things in the CST: a mapping's entry by key, a value's shape. A reference to a
 * collection carries its `lead` (the tokens printed right before its first item), which
 * block-level edits need to re-home the first item's indentation.
 */
import { CST } from 'yaml';
import {
  isBlockMap,
  isBlockSeq,
  isFlowMap,
  isFlowScalar,
  isFlowSeq,
  isTriviaItem,
  type Item,
  type SourceToken,
  type Token,
} from './cst-tokens.js';

export interface MapRef {
  readonly node: CST.BlockMap | CST.FlowCollection;
  readonly lead: SourceToken[] | undefined;
  /** The workflow's top level, where `on` may be spelled `"on"` or `true`. */
  readonly root?: boolean;
}

export interface SeqRef {
  readonly node: CST.BlockSequence | CST.FlowCollection;
  readonly lead: SourceToken[] | undefined;
}

const ignoreErrors = (): void => undefined;

/** The string a scalar key reads as (aliases and collections as keys have none). */
function keyName(item: Item): string | undefined {
  const key = item.key;
  if (
    !key ||
    (key.type !== 'scalar' && key.type !== 'single-quoted-scalar' && key.type !== 'double-quoted-scalar')
  )
    return undefined;
  return CST.resolveAsScalar(key, true, ignoreErrors)?.value;
}

/**
 * A YAML 1.1 reader (GitHub's among them once) reads a bare `on` as `true`, so files write
 * `"on":` or even `true:`; all of them are the trigger key.
 */
function isTriggerKey(item: Item): boolean {
  const name = keyName(item);
  return (
    name === 'on' || (item.key?.type === 'scalar' && (name === 'true' || name === 'True' || name === 'TRUE'))
  );
}

export function findEntry(ref: MapRef, key: string): number {
  return ref.node.items.findIndex(
    (item) =>
      !isTriviaItem(item) &&
      (keyName(item) === key || (ref.root === true && key === 'on' && isTriggerKey(item))),
  );
}

export function entryNames(ref: MapRef): string[] {
  return ref.node.items.flatMap((item) => {
    const name = isTriviaItem(item) ? undefined : keyName(item);
    return name === undefined ? [] : [name];
  });
}

/** `null`, `~`, or nothing at all after the colon: a slot one may fill without loss. */
export function isNullValue(value: Token | undefined): boolean {
  if (value === undefined) return true;
  if (value.type !== 'scalar') return false;
  return /^(?:null|Null|NULL|~)?$/.test(value.source);
}

export function mapRefOf(item: Item): MapRef | undefined {
  const value = item.value;
  if (isBlockMap(value) || isFlowMap(value)) return { node: value, lead: item.sep ?? item.start };
  return undefined;
}

export function seqRefOf(item: Item): SeqRef | undefined {
  const value = item.value;
  if (isBlockSeq(value) || isFlowSeq(value)) return { node: value, lead: item.sep ?? item.start };
  return undefined;
}

export function rootRef(document: CST.Document): MapRef | undefined {
  const value = document.value;
  if (isBlockMap(value) || isFlowMap(value)) return { node: value, lead: document.start, root: true };
  return undefined;
}

/** What a value is, in the words a warning uses. */
export function shapeOf(value: Token | undefined): string {
  if (isNullValue(value)) return 'empty';
  if (value?.type === 'alias') return 'an alias';
  if (isFlowScalar(value) || value?.type === 'block-scalar') return 'a scalar';
  if (isBlockSeq(value) || isFlowSeq(value)) return 'a sequence';
  if (isBlockMap(value) || isFlowMap(value)) return 'a mapping';
  return 'not a mapping';
}
