import { crc32 } from 'node:zlib';
import { randomDraw } from '../vault/random-draws.js';
import { parseJsonAs, z } from '@vmark/sdk';

/** One line of `index.jsonl`: what an AI edit changed, without the text it replaced. */
export interface CheckpointEntry {
  readonly id: string;
  /** ISO 8601, UTC. */
  readonly createdAt: string;
  /** The tab the edit was made in, null when the document had none (the tab dies with its host). */
  readonly tabId: string | null;
  /** The document's file, null for an untitled buffer (which cannot be restored from the CLI). */
  readonly filePath: string | null;
  /** `<tool>.<action>`, e.g. `document.write`. */
  readonly tool: string;
  readonly description: string;
  readonly revisionBefore: string;
  readonly revisionAfter: string;
  /** UTF-8 size of the replaced text: what retention counts. */
  readonly bytesBefore: number;
}

/** An entry with the text the edit replaced. */
export interface Checkpoint extends CheckpointEntry {
  readonly contentBefore: string;
}

// Nine base-36 digits of milliseconds last until the year 5188; eight random ones tell apart ids of one millisecond.
const TIME_DIGITS = 9;
const RANDOM_DIGITS = 8;
const ID_PATTERN = /^ckpt-[0-9a-z]{17}$/;
/** The length of every checkpoint id. */
export const CHECKPOINT_ID_LENGTH = 'ckpt-'.length + TIME_DIGITS + RANDOM_DIGITS;

/** `ckpt-` + the time (so ids sort by creation) + random digits. */
export function newCheckpointId(at: Date): string {
  const time = at.getTime().toString(36).padStart(TIME_DIGITS, '0');
  const random = [...randomDraw(RANDOM_DIGITS)].map((byte) => (byte % 36).toString(36)).join('');
  return `ckpt-${time}${random}`;
}

/** Ids name files: anything else (`../x`, an empty string) must never reach a path. */
export function isCheckpointId(value: string): boolean {
  return ID_PATTERN.test(value);
}

export function serializeEntry(entry: CheckpointEntry): string {
  const { id, createdAt, tabId, filePath, tool, description, revisionBefore, revisionAfter, bytesBefore } =
    entry;
  // Fixed field order, and only these fields: a Checkpoint passed in by mistake must not put text in the index.
  return JSON.stringify({
    id,
    createdAt,
    tabId,
    filePath,
    tool,
    description,
    revisionBefore,
    revisionAfter,
    bytesBefore,
  });
}

const entrySchema = z.object({
  id: z.string().refine(isCheckpointId),
  createdAt: z.string(),
  tabId: z.string().nullable(),
  filePath: z.string().nullable(),
  tool: z.string(),
  description: z.string(),
  revisionBefore: z.string(),
  revisionAfter: z.string(),
  bytesBefore: z.number().int().min(0),
});

/**
 * One index line, or undefined for a line that is not a whole entry: the torn
 * tail of an append cut short by a crash, or anything else that is not ours.
 */
export function parseEntry(line: string): CheckpointEntry | undefined {
  return parseJsonAs(entrySchema, line);
}

/** A checkpoint file's first line: its entry, and the CRC-32 of its text (absent in files written before ADR 102). */
const fileHeaderSchema = entrySchema.extend({ crc32: z.number().int().min(0).optional() });

/**
 * A checkpoint's text file (`<id>.ckpt`): its entry's index line with the CRC-32 of the text
 * added, a newline, then the text the edit replaced. The file describes itself, so a checkpoint
 * whose index line was never written (the write is acknowledged before that line, ADR 79) is
 * found again from the file alone. The CRC tells a whole text from one whose pages a crash left
 * half old: a file rewritten in place (a reused one, ADR 102) can have the right size and the
 * new first line over an older checkpoint's text.
 */
export function serializeCheckpointFile(entry: CheckpointEntry, contentBefore: string): string {
  const line = serializeEntry(entry);
  // The index's line with one more field: readers of the entry alone (zod strips it) are unchanged.
  return `${line.slice(0, -1)},"crc32":${crc32(contentBefore)}}\n${contentBefore}`;
}

/**
 * A checkpoint text file's entry and text, or undefined when the file is not one: no whole
 * entry on its first line, another id than `id` (the name it was found under), a text of
 * another size than its entry says, or (when the first line has one) another CRC-32.
 */
export function parseCheckpointFile(id: string, text: string): Checkpoint | undefined {
  const newline = text.indexOf('\n');
  if (newline < 0) return undefined;
  const header = parseJsonAs(fileHeaderSchema, text.slice(0, newline));
  if (header?.id !== id) return undefined;
  const { crc32: sum, ...entry } = header;
  const contentBefore = text.slice(newline + 1);
  if (Buffer.byteLength(contentBefore, 'utf8') !== entry.bytesBefore) return undefined;
  if (sum !== undefined && crc32(contentBefore) !== sum) return undefined;
  return { ...entry, contentBefore };
}

/** Every whole entry of an index file's text, oldest first. */
export function parseIndex(text: string): CheckpointEntry[] {
  const entries: CheckpointEntry[] = [];
  for (const line of text.split('\n')) {
    const entry = line.trim() === '' ? undefined : parseEntry(line);
    if (entry) entries.push(entry);
  }
  return entries;
}
