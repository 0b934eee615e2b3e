import type { SearchQuery } from '@codemirror/search';
import type { EditorState } from '@codemirror/state';

/** Counting stops here: the panel says "10000+" rather than walk a huge file on every keystroke. */
export const COUNT_LIMIT = 10_000;

/** How many matches there are, and which of them is the selection (1-based; 0: none is selected). */
export interface MatchCount {
  readonly total: number;
  readonly current: number;
  /** More than `COUNT_LIMIT`: `total` is the limit. */
  readonly more: boolean;
}

/**
 * The matches of `query` in `state`, and the one the main selection is on. An empty or
 * invalid query has none (the panel says why the pattern is not valid: `patternProblem`).
 */
export function countMatches(query: SearchQuery, state: EditorState): MatchCount {
  if (!query.valid) return { total: 0, current: 0, more: false };
  const { from, to } = state.selection.main;
  const cursor = query.getCursor(state);
  let total = 0;
  let current = 0;
  for (let step = cursor.next(); !step.done; step = cursor.next()) {
    total += 1;
    if (step.value.from === from && step.value.to === to) current = total;
    if (total >= COUNT_LIMIT) return { total, current, more: !cursor.next().done };
  }
  return { total, current, more: false };
}

/** Why a regular expression does not compile, in the browser's words; undefined when it does. */
export function patternProblem(source: string, regexp: boolean): string | undefined {
  if (!regexp || source === '') return undefined;
  try {
    new RegExp(source, 'u');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** "3 of 12", "12 matches", "No matches", "10000+ matches", as the panel shows the count. */
export function matchLabel(count: MatchCount): string {
  const total = `${count.total}${count.more ? '+' : ''}`;
  if (count.total === 0) return 'No matches';
  if (count.current > 0) return `${count.current} of ${total}`;
  return count.total === 1 ? '1 match' : `${total} matches`;
}
