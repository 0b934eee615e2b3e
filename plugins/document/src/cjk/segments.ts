/**
 * The formattable segments of a document — the text between its protected regions —
 * and the reconstruction of a document from rewritten segments. Protected bytes are
 * copied from the input, never from a rule's output, so they cannot change.
 */
import type { ProtectedRegion } from './region-types.js';

/** Where a segment sits, for the rules whose behaviour depends on its edges. */
export interface SegmentContext {
  /** An inline construct (code span, emphasis mark, link syntax…) ends right where the segment starts. */
  afterInline: boolean;
  /** An inline construct starts right where the segment ends. */
  beforeInline: boolean;
  /** The segment starts the document (nothing protected before it). */
  atDocumentStart: boolean;
  /** The segment runs to the end of the document. */
  atDocumentEnd: boolean;
}

export interface Segment extends SegmentContext {
  from: number;
  to: number;
  text: string;
}

/** The context of a whole document with no protected region: both edges are the document's. */
export const WHOLE_TEXT: SegmentContext = {
  afterInline: false,
  beforeInline: false,
  atDocumentStart: true,
  atDocumentEnd: true,
};

/** The gaps between `regions` (ordered, disjoint), empty gaps omitted. */
export function extractSegments(content: string, regions: readonly ProtectedRegion[]): Segment[] {
  const segments: Segment[] = [];
  let cursor = 0;
  let previous: ProtectedRegion | undefined;
  for (const region of regions) {
    if (region.from > cursor) {
      segments.push({
        from: cursor,
        to: region.from,
        text: content.slice(cursor, region.from),
        afterInline: previous?.inline ?? false,
        beforeInline: region.inline,
        atDocumentStart: cursor === 0,
        atDocumentEnd: false,
      });
    }
    cursor = Math.max(cursor, region.to);
    previous = region;
  }
  if (cursor < content.length) {
    segments.push({
      from: cursor,
      to: content.length,
      text: content.slice(cursor),
      afterInline: previous?.inline ?? false,
      beforeInline: false,
      atDocumentStart: cursor === 0,
      atDocumentEnd: true,
    });
  }
  return segments;
}

/** A rebuilt document, and where each input region starts in it (the chunk map the integrity check reads). */
export interface RewrittenDocument {
  text: string;
  /** `regionStarts[i]`: the offset in `text` of the copy of `regions[i]`. */
  regionStarts: Int32Array;
}

/**
 * Rebuilds the document with each segment's text replaced by `rewrite(segment)`.
 * Built by `+=`: V8 keeps a rope and copies it once, when the result is first read, so a
 * megabyte document costs one copy, not one per segment, and no array of parts.
 */
export function rewriteSegments(
  content: string,
  regions: readonly ProtectedRegion[],
  rewrite: (segment: Segment) => string,
): string {
  return rewriteMapped(content, regions, rewrite).text;
}

/** `rewriteSegments`, also telling where each region landed in the output. */
export function rewriteMapped(
  content: string,
  regions: readonly ProtectedRegion[],
  rewrite: (segment: Segment) => string,
): RewrittenDocument {
  // A rope rather than an array join: the same string, a little less CPU (ADR 90, addendum).
  let rebuilt = '';
  const regionStarts = new Int32Array(regions.length);
  let changed = false;
  let cursor = 0;
  // How much longer the output is than the input so far, and the next region to place.
  let shift = 0;
  let next = 0;
  for (const segment of extractSegments(content, regions)) {
    for (; next < regions.length && regions[next]!.from < segment.to; next++) {
      regionStarts[next] = regions[next]!.from + shift;
    }
    if (segment.from > cursor) rebuilt += content.slice(cursor, segment.from);
    const text = rewrite(segment);
    if (text !== segment.text) changed = true;
    shift += text.length - segment.text.length;
    rebuilt += text;
    cursor = segment.to;
  }
  for (; next < regions.length; next++) regionStarts[next] = regions[next]!.from + shift;
  if (!changed) return { text: content, regionStarts };
  if (cursor < content.length) rebuilt += content.slice(cursor);
  return { text: rebuilt, regionStarts };
}
