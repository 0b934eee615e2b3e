import { type Ranked, byRecencyThenScore, fuzzyScore, rankMatches } from './fuzzy-score.js';

/**
 * The workspace's file paths for quick open, each kept lower-cased beside it. A query that extends
 * the last one (the person typed one more letter) searches only the last one's matches: every
 * path that matches the longer query matched the shorter.
 */
export class PathIndex {
  #paths: string[] = [];
  #lower = new Map<string, string>();
  #last: { query: string; matches: string[] } | null = null;

  /** Replaces the paths (the workspace's list changed); the narrowing starts over. */
  set(paths: readonly string[]): void {
    this.#paths = [...paths];
    this.#lower = new Map(this.#paths.map((p) => [p, p.toLowerCase()]));
    this.#last = null;
  }

  get size(): number {
    return this.#paths.length;
  }

  /** The `limit` best paths for `query`, the recent ones first. */
  query(query: string, recent: readonly string[], limit: number): Ranked<string>[] {
    const q = query.replaceAll(' ', '').toLowerCase();
    const pool = this.#last !== null && q.startsWith(this.#last.query) ? this.#last.matches : this.#paths;
    const lowerOf = (p: string) => this.#lower.get(p) ?? p.toLowerCase();
    const present = recent.filter((p) => this.#lower.has(p));
    if (q === '') {
      this.#last = null;
      return rankMatches(q, this.#paths, (p) => p, present, limit, lowerOf);
    }
    // Each path scored once: the matches are kept for the next keystroke and ranked here.
    const ranked: Ranked<string>[] = [];
    for (const item of pool) {
      const score = fuzzyScore(q, item, lowerOf(item));
      if (score !== null) ranked.push({ item, score });
    }
    this.#last = { query: q, matches: ranked.map((r) => r.item) };
    return ranked.sort(byRecencyThenScore(present)).slice(0, limit);
  }
}
