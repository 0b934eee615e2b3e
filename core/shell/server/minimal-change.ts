import { ChangeSet } from '@codemirror/state';
import type { ChangeSetJson } from '../../protocol/protocol.js';

/**
 * The smallest single replacement that turns `before` into `after`: the common
 * prefix and suffix stay, the middle is replaced. A whole-text write (an AI's
 * `document.write`) thus reaches an editor as one small change, one undo step,
 * and leaves the cursor and folds outside it alone.
 */
export function minimalChange(before: string, after: string): ChangeSetJson {
  const limit = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < limit && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  // Never split a surrogate pair: the editor would see half a character.
  if (prefix > 0 && isHighSurrogate(before.charCodeAt(prefix - 1))) prefix--;
  let suffix = 0;
  while (
    suffix < limit - prefix &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  ) {
    suffix++;
  }
  if (suffix > 0 && isLowSurrogate(before.charCodeAt(before.length - suffix))) suffix--;
  const changes = ChangeSet.of(
    prefix === before.length && prefix === after.length
      ? []
      : [{ from: prefix, to: before.length - suffix, insert: after.slice(prefix, after.length - suffix) }],
    before.length,
    '\n',
  );
  return changes.toJSON() as ChangeSetJson;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
