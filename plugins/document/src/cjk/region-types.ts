/** What a protected region is, for diagnostics and for the spacing rules' edge logic. */
export type RegionKind =
  | 'front-matter'
  | 'code'
  | 'html'
  | 'math'
  | 'link-syntax'
  | 'reference-definition'
  | 'footnote'
  | 'wiki-link'
  | 'escape'
  | 'entity'
  | 'hard-break'
  | 'markup'
  | 'reference-section';

/** A half-open range `[from, to)` of the document that no transform may change. */
export interface ProtectedRegion {
  from: number;
  to: number;
  kind: RegionKind;
  /**
   * True for constructs that sit inside a line of prose (a code span, a link's `](url)`,
   * an emphasis mark); false for line structure (list and quote markers, heading marks,
   * table pipes, code blocks). Spacing rules collapse a run of spaces next to an inline
   * construct but leave the whitespace next to line structure alone: it is indentation
   * or table padding there.
   */
  inline: boolean;
}
