/**
 * The WebSocket requests of quick open (Ctrl/Cmd+P, ADR 62): types only, merged into
 * `protocol.ts`'s `Requests`, shared by the host's UI server and the renderer.
 */

/** One file quick open lists. */
export interface QuickOpenItem {
  /** Absolute path; pass it back to `quickOpen.open`. */
  readonly path: string;
  /** What the list shows: the path relative to its workspace (its name first when several are searched). */
  readonly label: string;
  /** Indexes into `label` of the characters the query matched, for highlighting. */
  readonly positions: readonly number[];
  /** The person opened it lately. */
  readonly recent: boolean;
}

/** The workspace file index behind the list: while `building`, `files` grows and the page asks again. */
export interface QuickOpenIndexState {
  readonly building: boolean;
  readonly files: number;
  /** What the list leaves out and why (a bound reached, links not followed). */
  readonly notes: readonly string[];
}

export interface QuickOpenRequests {
  /**
   * The best files of this page's workspace for `query` (fuzzy; an empty query lists the recent
   * files first). The first query of a workspace starts its index.
   */
  'quickOpen.query': {
    params: { query: string; limit?: number };
    result: { items: QuickOpenItem[]; index: QuickOpenIndexState };
  };
  /**
   * Opens a listed file in this page's window and counts it as recently opened; `background`
   * opens its tab without showing it (Ctrl/Cmd+Enter).
   */
  'quickOpen.open': {
    params: { path: string; background?: boolean };
    result: { tabId: string; windowLabel: string; title: string };
  };
}
