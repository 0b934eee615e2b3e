import { fuzzyPositions, normalizeQuery, scoreNormalized } from './fuzzy-score.js';

/** One path quick open shows: its score and where the query's characters are in it. */
export interface PathMatch {
  readonly item: string;
  readonly score: number;
  /** Indexes into `item` of the matched characters, for highlighting. */
  readonly positions: readonly number[];
}

/**
 * The workspace's file paths for quick open, each kept lower-cased beside it. A query that extends
 * the last one (the person typed one more letter) searches only the last one's matches: every
 * path that matches the longer query matched the shorter. Only the `limit` best are sorted, and
 * only they get their positions.
 */
export class PathIndex {
  /** path → path lower-cased; insertion order is the order an empty query lists them in. */
  #lower = new Map<string, string>();
  #last: { query: string; paths: string[]; lower: string[] } | null = null;

  /** Replaces the paths (the workspace's list changed); the narrowing starts over. */
  set(paths: readonly string[]): void {
    this.#lower = new Map(paths.map((p) => [p, p.toLowerCase()]));
    this.#last = null;
  }

  add(path: string): void {
    if (this.#lower.has(path)) return;
    this.#lower.set(path, path.toLowerCase());
    this.#last = null;
  }

  delete(path: string): void {
    if (this.#lower.delete(path)) this.#last = null;
  }

  has(path: string): boolean {
    return this.#lower.has(path);
  }

  get size(): number {
    return this.#lower.size;
  }

  paths(): IterableIterator<string> {
    return this.#lower.keys();
  }

  /**
   * The `limit` best paths for `query`, best first; among equal scores the more recent first
   * (`recent`: most recent first). An empty query lists the recent paths, then the others.
   */
  query(query: string, recent: readonly string[], limit: number): PathMatch[] {
    const q = normalizeQuery(query);
    const recency = new Map<string, number>();
    recent.forEach((p, i) => {
      if (this.#lower.has(p) && !recency.has(p)) recency.set(p, recent.length - i);
    });
    if (q === '') {
      this.#last = null;
      const listed = [...recency.keys()];
      for (const p of this.#lower.keys()) {
        if (listed.length >= limit) break;
        if (!recency.has(p)) listed.push(p);
      }
      return listed.slice(0, limit).map((item) => ({ item, score: 0, positions: [] }));
    }
    const narrowing = this.#last !== null && q.startsWith(this.#last.query) ? this.#last : null;
    const top = new TopMatches(limit, recency);
    const paths: string[] = [];
    const lower: string[] = [];
    const consider = (item: string, itemLower: string) => {
      const score = scoreNormalized(q, item, itemLower);
      if (score === null) return;
      paths.push(item);
      lower.push(itemLower);
      top.offer(item, score);
    };
    if (narrowing) narrowing.paths.forEach((p, i) => consider(p, narrowing.lower[i]!));
    else for (const [p, l] of this.#lower) consider(p, l);
    this.#last = { query: q, paths, lower };
    return top.sorted().map(({ item, score }) => ({
      item,
      score,
      positions: fuzzyPositions(q, item, this.#lower.get(item)) ?? [],
    }));
  }
}

/** The `limit` best offered so far, kept sorted: most offers lose to the worst kept and cost one comparison. */
class TopMatches {
  readonly #kept: { item: string; score: number }[] = [];

  constructor(
    private readonly limit: number,
    private readonly recency: ReadonlyMap<string, number>,
  ) {}

  offer(item: string, score: number): void {
    if (this.limit <= 0) return;
    const entry = { item, score };
    const kept = this.#kept;
    if (kept.length === this.limit && !this.#before(entry, kept[kept.length - 1]!)) return;
    let at = kept.length;
    while (at > 0 && this.#before(entry, kept[at - 1]!)) at--;
    kept.splice(at, 0, entry);
    if (kept.length > this.limit) kept.pop();
  }

  sorted(): readonly { item: string; score: number }[] {
    return this.#kept;
  }

  /** Whether `a` ranks before `b`: a higher score, then the more recent; else the one offered first stays first. */
  #before(a: { item: string; score: number }, b: { item: string; score: number }): boolean {
    if (a.score !== b.score) return a.score > b.score;
    return (this.recency.get(a.item) ?? 0) > (this.recency.get(b.item) ?? 0);
  }
}
