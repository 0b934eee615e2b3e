/**
 * A line diff (longest common subsequence of lines, line endings included) to measure what
 * an edit touched: the tests assert that only the edited node's lines differ, the bench
 * counts lines and bytes changed. Workflow files are small, so the quadratic table is fine.
 */
export interface LineDiff {
  /** Lines only in `before`, in order. */
  readonly removed: string[];
  /** Lines only in `after`, in order. */
  readonly added: string[];
  /** UTF-8 bytes in the removed plus the added lines. */
  readonly bytesChanged: number;
}

export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export function diffLines(before: string, after: string): LineDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  // lengths[i][j]: LCS length of midA[i..] and midB[j..]
  const lengths = Array.from({ length: midA.length + 1 }, () => new Array<number>(midB.length + 1).fill(0));
  for (let i = midA.length - 1; i >= 0; i--) {
    const row = lengths[i] as number[];
    const below = lengths[i + 1] as number[];
    for (let j = midB.length - 1; j >= 0; j--)
      row[j] =
        midA[i] === midB[j]
          ? (below[j + 1] as number) + 1
          : Math.max(below[j] as number, row[j + 1] as number);
  }
  const removed: string[] = [];
  const added: string[] = [];
  let i = 0;
  let j = 0;
  while (i < midA.length || j < midB.length) {
    if (i < midA.length && j < midB.length && midA[i] === midB[j]) {
      i++;
      j++;
    } else if (
      j >= midB.length ||
      (i < midA.length && (lengths[i + 1]?.[j] ?? 0) >= (lengths[i]?.[j + 1] ?? 0))
    ) {
      removed.push(midA[i++] as string);
    } else added.push(midB[j++] as string);
  }
  const bytes = (lines: string[]): number => lines.reduce((sum, line) => sum + Buffer.byteLength(line), 0);
  return { removed, added, bytesChanged: bytes(removed) + bytes(added) };
}
