import type { DocumentSnapshot } from '@vmark/sdk';
import { ArgumentError, z } from '@vmark/sdk';

/**
 * A window of `document.read`: part of a document too large to read whole within the output
 * bound. Positions count UTF-16 code units, as `selection` ranges and JavaScript strings do.
 */
export interface DocumentWindow {
  readonly content: string;
  readonly revision: string;
  readonly offset: number;
  /** Of `content`: shorter than asked for at the end of the document. */
  readonly length: number;
  readonly total_length: number;
  /** Where the next window starts; absent once this one reaches the end. */
  readonly next_offset?: number;
  readonly window_note: string;
  readonly conflict?: { readonly reason: string; readonly message: string };
}

/** A window of this length fits the output bound for any ordinary text (3 UTF-8 bytes a unit at most). */
export const SUGGESTED_WINDOW = 20_000;

const POSITION = 'a count of UTF-16 code units, as total_length counts';

export const offsetArg = z
  .number({ error: `offset must be an integer of 0 or more (${POSITION})` })
  .int({ error: `offset must be an integer of 0 or more (${POSITION})` })
  .min(0, { error: `offset must be an integer of 0 or more (${POSITION})` })
  .optional();

export const lengthArg = z
  .number({ error: `length must be an integer of 1 or more (${POSITION})` })
  .int({ error: `length must be an integer of 1 or more (${POSITION})` })
  .min(1, { error: `length must be an integer of 1 or more (${POSITION})` })
  .optional();

/** What every window says, so that no client mistakes it for the document. */
function noteFor(offset: number, end: number, total: number): string {
  const where = `Characters ${offset} to ${end} of ${total} (UTF-16 code units)`;
  const more = end < total ? `; read on with offset: ${end}` : '; this window reaches the end';
  return (
    `${where}${more}. This is part of the document, no basis for a whole write: document.write ` +
    'replaces all of it, so writing back a window (or a text made from one) destroys the rest. ' +
    'Change a part with selection.set, or write only a text you read whole.'
  );
}

/**
 * The window `[offset, offset + length)` of a document, cut at its end.
 * @throws ArgumentError for an offset past the end, or a window edge inside a surrogate pair.
 */
export function documentWindow(
  document: DocumentSnapshot,
  offset: number,
  length: number | undefined,
): DocumentWindow {
  const text = document.content;
  const total = text.length;
  if (offset > total) {
    throw new ArgumentError(`offset ${offset} is past the end of the document (total_length ${total})`);
  }
  const end = length === undefined ? total : Math.min(offset + length, total);
  if (splitsPair(text, offset)) {
    throw new ArgumentError(
      `offset ${offset} falls inside a character outside the BMP (the surrogate pair at ${offset - 1}); ` +
        `use offset ${offset - 1} or ${offset + 1}`,
    );
  }
  if (splitsPair(text, end)) {
    const lengths = [end - 1 - offset, end + 1 - offset].filter((n) => n >= 1);
    throw new ArgumentError(
      `the window would end at ${end}, inside a character outside the BMP (the surrogate pair at ${end - 1}); ` +
        `use length ${lengths.join(' or ')}`,
    );
  }
  const window: DocumentWindow = {
    content: text.slice(offset, end),
    revision: document.revision,
    offset,
    length: end - offset,
    total_length: total,
    ...(end < total ? { next_offset: end } : {}),
    window_note: noteFor(offset, end, total),
  };
  if (!document.conflict) return window;
  const { reason, message } = document.conflict;
  return {
    ...window,
    conflict: {
      reason,
      message: `${message} A window leaves disk_content out: read the document whole to see it.`,
    },
  };
}

/** Whether a cut at `index` separates a high surrogate from the low one after it. */
function splitsPair(text: string, index: number): boolean {
  if (index <= 0 || index >= text.length) return false;
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}
