/**
 * The AI edit history's line for a `selection.set`, in the original's words:
 * "Replaced selection (+N chars, was A, now B)", A and B the lengths of the
 * replaced and the inserted text (UTF-16 code units, as editors count).
 */
export function describeSelectionChange(replaced: string, inserted: string): string {
  const delta = inserted.length - replaced.length;
  return `Replaced selection (${delta < 0 ? delta : `+${delta}`} chars, was ${replaced.length}, now ${inserted.length})`;
}
