/**
 * `browser_read read`: the page as a flat list of entries — controls, headings, images,
 * landmarks and excerpts of the text between them, each element with a ref — across the main
 * document and its iframes (same- and cross-origin), open and closed shadow roots included
 * (the accessibility tree sees through both). Bounded: MAX_ENTRIES entries, names of
 * NAME_CHARS, and no more than fits the output bound, so a client always gets a list it can
 * parse; `truncated` says when something was left out.
 */
import { DEFAULT_PLAN, type PlanOptions } from './ax-plan.js';
import {
  type DocumentEntry,
  MAX_ENTRIES,
  type SnapshotEntry,
  snapshotDocument,
} from './document-snapshot.js';
import type { FrameDocument, PageFrames } from './page-frames.js';
import type { RefTable } from './ref-table.js';
import type { SnapshotCache } from './snapshot-cache.js';

export interface ReadResult {
  readonly url: string;
  readonly snapshot: SnapshotEntry[];
  readonly truncated?: true;
  /** Frames whose document could not be read (not loaded, unreachable, not answering). */
  readonly unreachable?: { readonly frames: number };
}

export interface ReadContext {
  readonly frames: PageFrames;
  readonly refs: RefTable;
  readonly generation: number;
  readonly url: string;
  readonly plan?: PlanOptions;
  /** The documents' last snapshots, reused while a document is unchanged. */
  readonly cache?: SnapshotCache;
}

/** How deep iframes are followed, and how many documents one read takes in. */
const MAX_FRAME_DEPTH = 4;
const MAX_DOCUMENTS = 32;
/** An iframe that does not answer in this time is counted unreachable; the rest of the page is not held up. */
const FRAME_DEADLINE_MS = 5000;
/**
 * The snapshot's share of the 75,000-byte output bound (the JSON is pretty-printed, two spaces):
 * past it the read stops adding entries, so the client gets a list it can parse.
 */
const SNAPSHOT_BYTES = 72_000;

export async function readSnapshot(context: ReadContext): Promise<ReadResult> {
  const plan = context.plan ?? DEFAULT_PLAN;
  let documents = 0;
  let unreachable = 0;
  let truncated = false;

  const read = async (document: FrameDocument, depth: number): Promise<DocumentEntry[]> => {
    documents++;
    const own = await snapshotDocument(document, context.refs, context.generation, plan, context.cache);
    truncated ||= own.truncated;
    const children = own.entries.map((entry) => {
      if (entry.frameOwner === undefined) return null;
      if (depth >= MAX_FRAME_DEPTH || documents >= MAX_DOCUMENTS) {
        unreachable++;
        return null;
      }
      return readFrame(document, entry.frameOwner, depth + 1);
    });
    const out: DocumentEntry[] = [];
    for (const [i, entry] of own.entries.entries()) {
      out.push(entry);
      const child = await children[i];
      if (child) out.push(...child);
    }
    return out;
  };

  const readFrame = async (parent: FrameDocument, owner: number, depth: number): Promise<DocumentEntry[]> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      const reading = (async () => {
        const child = await context.frames.child(parent, owner);
        if (child === null) throw new Error('no document to enter');
        return read(child, depth);
      })();
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('frame did not answer')), FRAME_DEADLINE_MS);
      });
      return await Promise.race([reading, late]);
    } catch {
      unreachable++;
      return [];
    } finally {
      clearTimeout(timer);
    }
  };

  const entries = await read(await context.frames.main(), 0);
  const snapshot = bounded(entries, context.url);
  if (snapshot.length < entries.length) truncated = true;
  return {
    url: context.url,
    snapshot,
    ...(truncated ? { truncated: true as const } : {}),
    ...(unreachable > 0 ? { unreachable: { frames: unreachable } } : {}),
  };
}

/** What goes first when a snapshot does not fit: the text, then the markers, never a control before them. */
const MARKERS = new Set([
  'banner',
  'navigation',
  'main',
  'contentinfo',
  'complementary',
  'search',
  'form',
  'region',
  'image',
  'iframe',
]);

function rank(entry: SnapshotEntry): number {
  if (entry.role === 'text') return 2;
  return MARKERS.has(entry.role) ? 1 : 0;
}

/**
 * The entries that fit MAX_ENTRIES and the byte budget, without the reader's own fields. When
 * they do not all fit, the excerpts of text go first (from the end), then the section markers,
 * so that every control and heading stays addressable for as long as there is room.
 */
function bounded(entries: readonly DocumentEntry[], url: string): SnapshotEntry[] {
  const visible = entries.map(({ frameOwner: _frameOwner, ...entry }) => entry);
  // As the output bound prints each: two levels in, one property a line.
  const sizes = visible.map(
    (entry) => Buffer.byteLength(JSON.stringify(entry, null, 2)) + 4 * (Object.keys(entry).length + 2) + 2,
  );
  // The result's frame: `{"url": …, "snapshot": [ … ], "truncated": true, "unreachable": …}`.
  const budget = SNAPSHOT_BYTES - Buffer.byteLength(JSON.stringify(url)) - 200;
  const keep = visible.map(() => true);
  let bytes = sizes.reduce((a, b) => a + b, 0);
  let count = visible.length;
  for (const dropping of [2, 1]) {
    for (let i = visible.length - 1; i >= 0 && (bytes > budget || count > MAX_ENTRIES); i--) {
      if (rank(visible[i]!) !== dropping) continue;
      keep[i] = false;
      bytes -= sizes[i]!;
      count--;
    }
  }
  const out: SnapshotEntry[] = [];
  let used = 0;
  for (const [i, entry] of visible.entries()) {
    if (!keep[i]) continue;
    if (out.length >= MAX_ENTRIES || used + sizes[i]! > budget) break;
    used += sizes[i]!;
    out.push(entry);
  }
  return out;
}
