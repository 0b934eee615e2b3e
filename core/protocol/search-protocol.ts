/**
 * The WebSocket requests of vault search (Ctrl/Cmd+Shift+F, ADR 68): types only, merged into
 * `protocol.ts`'s `Requests`, shared by the host's UI server and the renderer.
 */

/** How the query is read: as typed (the default), or as a JavaScript regular expression. */
export interface SearchOptions {
  readonly caseSensitive: boolean;
  readonly wholeWord: boolean;
  readonly regex: boolean;
}

/** One match, with its line for context. Lines and columns count from 1; columns in UTF-16 units. */
export interface SearchMatch {
  readonly line: number;
  readonly column: number;
  /** The match's length in UTF-16 units (it may run past the line's end: a regex over `\n`). */
  readonly length: number;
  /** The line, cut around the match when long; `start` is the match's index in it. */
  readonly preview: string;
  readonly start: number;
  /** The match's length within `preview`. */
  readonly end: number;
}

/** A file with matches: every match is counted; the first ones are listed. */
export interface SearchFileResult {
  /** Absolute path; open it with `tab.open`, replace in it with `search.replace`. */
  readonly path: string;
  /** The path relative to its workspace (its name first when several are searched). */
  readonly label: string;
  readonly matches: readonly SearchMatch[];
  /** Matches in this file past those listed. */
  readonly more: number;
  /** The text the matches were found in, as a SHA-256: a replace applies only to this text. */
  readonly sha256: string;
}

export interface SearchResult {
  readonly files: readonly SearchFileResult[];
  /** Files past the bound, and their matches, counted and not listed (a listed file counts its own `more`). */
  readonly moreMatches: number;
  readonly moreFiles: number;
  readonly searchedFiles: number;
  /** What the search left out and why (too large, not text, a regex that ran too long), in words. */
  readonly notes: readonly string[];
  /** The file list is still being built: the page asks again. */
  readonly building: boolean;
}

/** One file of a replace: the matches of the preview to leave as they are (their index in the file). */
export interface ReplaceFile {
  readonly path: string;
  readonly sha256: string;
  readonly skip: readonly number[];
}

/** What a replace did to one file. */
export interface ReplaceFileOutcome {
  readonly path: string;
  /** Matches replaced; 0 when the file was left as it was (`note` says why). */
  readonly replaced: number;
  /** The checkpoint that puts the file back (History). */
  readonly checkpoint?: string;
  readonly note?: string;
}

export interface SearchRequests {
  /**
   * The matches of `query` in this page's workspace. A query that is not a valid pattern is
   * refused (`INVALID_ARGUMENT`, in words); a regex that runs too long is stopped and said so.
   */
  'search.query': {
    params: { query: string; options: SearchOptions };
    result: SearchResult;
  };
  /**
   * Replaces the matches of `query` in each file (all but its `skip`) with `replacement` (in
   * regex mode `$1`, `$<name>`, `$&` and `$$` stand for the match's parts). A file whose text
   * is not the one searched, or whose open tab has unsaved changes, is left as it is, with a
   * note. Each changed file gets a checkpoint of its own.
   */
  'search.replace': {
    params: { query: string; options: SearchOptions; replacement: string; files: ReplaceFile[] };
    result: { files: ReplaceFileOutcome[] };
  };
}
