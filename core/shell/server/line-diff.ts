/**
 * The lines that differ between two line lists, by Myers' O((N+M)·D) algorithm, bounded: past
 * `maxEdits` inserted plus deleted lines, or `MAX_STEPS` line comparisons, it gives up (null)
 * and the caller replaces the whole span at once. A rewrite of a whole 10 MB document thus
 * costs a bounded number of passes over its lines, never a quadratic search.
 */

/** Line comparisons (each a string compare) before giving up: about ten passes over 200,000 lines. */
const MAX_STEPS = 2_000_000;

/** `before[beforeFrom, beforeTo)` is replaced by `after[afterFrom, afterTo)`; indexes are lines. */
export interface LineHunk {
  readonly beforeFrom: number;
  readonly beforeTo: number;
  readonly afterFrom: number;
  readonly afterTo: number;
}

export function diffLines(
  before: readonly string[],
  after: readonly string[],
  maxEdits: number,
): LineHunk[] | null {
  // Lines compared as strings, not hashed to numbers first: the common case (few edits in a long
  // text) compares each line about once, and hashing them all cost more than that.
  const a = before;
  const b = after;
  const n = a.length;
  const m = b.length;
  const offset = maxEdits + 1;
  const v = new Int32Array(2 * offset + 1);
  const trace: Int32Array[] = [];
  let steps = 0;
  for (let d = 0; d <= maxEdits; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      const snakeFrom = x;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      steps += x - snakeFrom + 1;
      if (steps > MAX_STEPS) return null;
      v[offset + k] = x;
      if (x >= n && y >= m) return hunksOf(trace, offset, n, m);
    }
  }
  return null;
}

/** Walks the saved frontiers back from (n, m) and joins adjacent single-line edits into hunks. */
function hunksOf(trace: readonly Int32Array[], offset: number, n: number, m: number): LineHunk[] {
  const hunks: LineHunk[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
    const previousK = down ? k + 1 : k - 1;
    const previousX = v[offset + previousK]!;
    const previousY = previousX - previousK;
    // The diagonal (equal lines) from the end of the edit back to (x, y).
    const editX = down ? previousX : previousX + 1;
    const editY = down ? previousY + 1 : previousY;
    const last = hunks[hunks.length - 1];
    if (last !== undefined && last.beforeFrom === editX && last.afterFrom === editY) {
      hunks[hunks.length - 1] = { ...last, beforeFrom: previousX, afterFrom: previousY };
    } else {
      hunks.push({ beforeFrom: previousX, beforeTo: editX, afterFrom: previousY, afterTo: editY });
    }
    x = previousX;
    y = previousY;
  }
  return hunks.reverse();
}
