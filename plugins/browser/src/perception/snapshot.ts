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
  /** What did not fit the output bound, by kind (only when something did not). */
  readonly omitted?: Omitted;
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
 * The host's output bound (vmark-notes §1.3: 75,000 bytes of the result pretty-printed, two
 * spaces), which the snapshot must fit whole so the client gets a list it can parse; less the
 * room kept for the result's other fields (`truncated`, `omitted`, `unreachable`).
 */
const OUTPUT_BOUND = 75_000;
const OTHER_FIELDS = 400;

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
  // The result's frame around the entries: `{"url": …, "snapshot": [ … ]}`.
  const frame = Buffer.byteLength(JSON.stringify({ url: context.url, snapshot: [] }, null, 2)) + 4;
  const { snapshot, omitted } = bounded(entries, OUTPUT_BOUND - frame - OTHER_FIELDS);
  return {
    url: context.url,
    snapshot,
    ...(truncated || omitted !== null ? { truncated: true as const } : {}),
    ...(omitted !== null ? { omitted } : {}),
    ...(unreachable > 0 ? { unreachable: { frames: unreachable } } : {}),
  };
}

/** Section markers: they go before headings and controls when a snapshot does not fit. */
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

/** What a snapshot leaves out when it does not fit, in the order it goes. */
export interface Omitted {
  /** Excerpts of text between elements. */
  readonly text?: number;
  /** Landmarks, images and iframes. */
  readonly markers?: number;
  /** Controls whose element is not rendered (a closed menu's links, a closed select's options). */
  readonly hidden?: number;
  readonly headings?: number;
  /** Rendered controls, from the end, when even they alone do not fit. */
  readonly controls?: number;
  /** Names of controls shortened (with "…") so that every control fits. */
  readonly shortenedNames?: number;
}

const KINDS = ['controls', 'headings', 'hidden', 'markers', 'text'] as const;

function kindOf(entry: DocumentEntry): (typeof KINDS)[number] {
  if (entry.role === 'text') return 'text';
  if (MARKERS.has(entry.role)) return 'markers';
  if (entry.role === 'heading') return 'headings';
  return entry.unrendered ? 'hidden' : 'controls';
}

/** Name lengths tried, longest first, before a rendered control is left out. */
const SHORTER_NAMES = [120, 80, 50, 32, 20];

/** An entry's bytes as the output bound prints it: two levels in, one property a line, then ",\n". */
function printedSize(entry: SnapshotEntry): number {
  return Buffer.byteLength(JSON.stringify(entry, null, 2)) + 4 * (Object.keys(entry).length + 2) + 2;
}

/**
 * The entries that fit MAX_ENTRIES and the byte budget, without the reader's own fields. When
 * they do not all fit, whole kinds go in turn, each from the end — the excerpts of text, the
 * section markers, the controls that are not rendered, the headings — then the longest names
 * of the rendered controls are shortened, and only then does the list lose its tail: every
 * control a person sees stays addressable for as long as there is any room.
 */
function bounded(
  entries: readonly DocumentEntry[],
  budget: number,
): { snapshot: SnapshotEntry[]; omitted: Omitted | null } {
  const visible = entries.map(({ frameOwner: _frameOwner, unrendered: _unrendered, ...entry }) => entry);
  const kinds = entries.map(kindOf);
  const sizes = visible.map(printedSize);
  const keep = visible.map(() => true);
  let bytes = sizes.reduce((a, b) => a + b, 0);
  let count = visible.length;
  const over = () => bytes > budget || count > MAX_ENTRIES;
  const dropped: Record<(typeof KINDS)[number], number> = {
    controls: 0,
    headings: 0,
    hidden: 0,
    markers: 0,
    text: 0,
  };
  for (const kind of ['text', 'markers', 'hidden', 'headings'] as const) {
    for (let i = visible.length - 1; i >= 0 && over(); i--) {
      if (kinds[i] !== kind || !keep[i]) continue;
      keep[i] = false;
      bytes -= sizes[i]!;
      count--;
      dropped[kind]++;
    }
  }
  const shortened = new Set<number>();
  for (const limit of SHORTER_NAMES) {
    if (!over()) break;
    visible.forEach((entry, i) => {
      if (!keep[i] || entry.name.length <= limit) return;
      const shorter = { ...entry, name: `${entry.name.slice(0, limit - 1)}…` };
      const size = printedSize(shorter);
      bytes -= sizes[i]! - size;
      sizes[i] = size;
      visible[i] = shorter;
      shortened.add(i);
    });
  }
  const snapshot: SnapshotEntry[] = [];
  let used = 0;
  for (const [i, entry] of visible.entries()) {
    if (!keep[i]) continue;
    if (snapshot.length >= MAX_ENTRIES || used + sizes[i]! > budget) {
      dropped[kinds[i]!]++;
      continue;
    }
    used += sizes[i]!;
    snapshot.push(entry);
  }
  const omitted: Record<string, number> = {};
  for (const kind of [...KINDS].reverse()) if (dropped[kind] > 0) omitted[kind] = dropped[kind];
  if (shortened.size > 0) omitted.shortenedNames = shortened.size;
  return { snapshot, omitted: Object.keys(omitted).length > 0 ? omitted : null };
}
