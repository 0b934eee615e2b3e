/**
 * A light protected-region scanner: one pass over the lines and one over each
 * paragraph's inline text, instead of a full @lezer/markdown parse (ADR 58, ADR 84).
 *
 * For the narrow transforms (`cjk-spacing`, `cjk-punctuation`) it finds what
 * `scanMarkdown` finds that a narrow rewrite could touch — fenced code, code spans,
 * escapes, character references, and the syntax of inline links and images — with
 * @lezer/markdown's own rules for those (ported below), and leaves out the Markdown
 * punctuation (`#`, `>`, list and emphasis marks, thematic breaks, hard breaks): those
 * hold no CJK letter, no ASCII letter or digit next to a CJK letter, and no `,.!?;:()`
 * next to one, so protecting them or not changes no narrow rewrite. For `cjk-format`
 * (`marks`) it finds that punctuation too, emphasis resolved as lezer resolves it, and
 * then gives exactly `scanMarkdown`'s regions.
 *
 * It covers a subset of Markdown on purpose. When a document holds anything outside it
 * (raw HTML or an autolink — any `<` —, tabs, CR, tables, reference links and
 * definitions, footnotes, indented code, nested blocks in list items or quotes,
 * multi-line quotes), it returns null and the caller parses with @lezer/markdown as
 * before. Exactness is checked against that parser in light-regions.test.ts.
 */
import type { ProtectedRegion } from './region-types.js';

/** Characters whose presence anywhere sends the document to the full parser. */
const OUT_OF_SUBSET = /[<\t\r]|\]\[|\[\^/;

/** @lezer/markdown's GFM table delimiter row. */
const DELIMITER_ROW = /^[>\s]*\|?(\s*:?-+:?\s*\|)+(\s*:?-+:?\s*)?$/;

/** @lezer/markdown's character reference, after the `&`. */
const ENTITY_BODY = /(?:#\d+|#x[a-f\d]+|\w+);/iy;

/** The characters an inline construct of the subset starts or ends with. */
const INLINE_TRIGGER = /[\\&`[\]!]/g;

const ESCAPABLE = new Set([...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'].map((char) => char.charCodeAt(0)));

const BACKTICK = 0x60;
const TILDE = 0x7e;
const SPACE = 0x20;
const NEWLINE = 0x0a;

type ScopeKind = 'paragraph' | 'item' | 'quote';

/**
 * The regions of `text` (offsets shifted by `offset`) a narrow transform must leave
 * alone, or null when the text is outside the scanner's subset. With `marks`, also the
 * Markdown punctuation `scanMarkdown` protects for `cjk-format` (heading, quote and list
 * marks, thematic breaks, setext underlines, emphasis and strikethrough marks, hard
 * breaks): then the regions are exactly `scanMarkdown`'s (ADR 84).
 */
export function scanLightMarkdown(text: string, offset = 0, marks = false): ProtectedRegion[] | null {
  if (OUT_OF_SUBSET.test(text)) return null;
  const regions: ProtectedRegion[] = [];
  // The open paragraph (its inline text is one contiguous range of `text`).
  let scopeFrom = -1;
  let scopeTo = -1;
  let scopeKind: ScopeKind = 'paragraph';
  let inList = false;
  // The open list's marker (`-`, `+`, `*`, or `.` / `)` for an ordered one).
  let listMark = 0;
  let fenceChar = 0;
  let fenceSize = 0;
  let fenceFrom = 0;

  const closeScope = (): boolean => {
    if (scopeFrom >= 0) {
      const ok = scanInline(text, scopeFrom, scopeTo, offset, regions, marks);
      scopeFrom = -1;
      return ok;
    }
    return true;
  };

  for (let lineStart = 0; lineStart <= text.length;) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    const next = lineEnd + 1;

    let first = lineStart;
    while (first < lineEnd && text.charCodeAt(first) === SPACE) first++;
    const indent = first - lineStart;

    if (fenceChar !== 0) {
      if (indent < 4 && closesFence(text, first, lineEnd, fenceChar, fenceSize)) {
        regions.push(region(fenceFrom, lineEnd, offset, 'code', false));
        fenceChar = 0;
      }
      lineStart = next;
      continue;
    }
    if (first === lineEnd) {
      if (!closeScope()) return null;
      lineStart = next;
      continue;
    }
    if (scopeFrom >= 0 && scopeKind === 'quote') return null;
    // Indented lines in a list may be the item's own blocks: not followed here.
    if (indent > 0 && inList) return null;
    if (indent >= 4) {
      // Paragraph continuation; anything else here (indented code, list content) is not in the subset.
      if (scopeFrom < 0) return null;
      scopeTo = lineEnd;
      lineStart = next;
      continue;
    }
    const block = blockStart(text, first, lineEnd, scopeFrom >= 0 && scopeKind === 'paragraph');
    if (block === 'unknown') return null;

    switch (block) {
      case 'fence': {
        if (!closeScope()) return null;
        inList = false;
        fenceChar = text.charCodeAt(first);
        fenceSize = runLength(text, first, lineEnd, fenceChar);
        fenceFrom = first;
        break;
      }
      case 'heading': {
        if (!closeScope()) return null;
        inList = false;
        const [from, to, closeFrom, closeTo] = headingContent(text, first, lineEnd);
        if (marks)
          regions.push(region(first, first + runLength(text, first, lineEnd, 0x23), offset, 'markup', false));
        if (!scanInline(text, from, to, offset, regions, marks)) return null;
        if (marks && closeTo > closeFrom) regions.push(region(closeFrom, closeTo, offset, 'markup', false));
        break;
      }
      case 'break': {
        // A setext underline when a top-level paragraph is open (it takes precedence over a
        // thematic break), else a thematic break, which runs to the end of its line.
        const code = text.charCodeAt(first);
        const underline =
          scopeFrom >= 0 &&
          scopeKind === 'paragraph' &&
          (code === 0x2d || code === 0x3d) &&
          isUnderline(text, first, lineEnd, code);
        if (!closeScope()) return null;
        inList = false;
        if (marks)
          regions.push(
            region(
              first,
              underline ? first + runLength(text, first, lineEnd, code) : lineEnd,
              offset,
              'markup',
              false,
            ),
          );
        break;
      }
      case 'quote': {
        if (!closeScope()) return null;
        inList = false;
        if (marks) regions.push(region(first, first + 1, offset, 'markup', false));
        let content = first + 1;
        if (text.charCodeAt(content) === SPACE) content++;
        if (content < lineEnd) {
          if (blockStart(text, content, lineEnd, false) !== 'text' || startsNested(text, content))
            return null;
          scopeFrom = content;
          scopeTo = lineEnd;
          scopeKind = 'quote';
        }
        break;
      }
      case 'item': {
        const mark = listMarkOf(text, first);
        // Only the first item of a list interrupts a paragraph, and only from 1 if ordered.
        const sibling = inList && scopeKind === 'item' && mark === listMark;
        const content = itemContent(text, first, lineEnd, scopeFrom >= 0 && !sibling);
        if (content < 0) return null;
        if (!closeScope()) return null;
        if (marks) {
          let markEnd = first;
          while (isDigit(text.charCodeAt(markEnd))) markEnd++;
          regions.push(region(first, markEnd + 1, offset, 'markup', false));
        }
        inList = true;
        listMark = mark;
        scopeFrom = content;
        scopeTo = lineEnd;
        scopeKind = 'item';
        break;
      }
      default: {
        if (scopeFrom >= 0) {
          scopeTo = lineEnd;
        } else {
          // A paragraph may open with a link reference definition or a task marker.
          if (text.charCodeAt(first) === 0x5b /* [ */) return null;
          inList = false;
          scopeFrom = first;
          scopeTo = lineEnd;
          scopeKind = 'paragraph';
        }
      }
    }
    lineStart = next;
  }
  if (fenceChar !== 0) regions.push(region(fenceFrom, text.length, offset, 'code', false));
  if (!closeScope()) return null;
  return regions;
}

/** A region of `text` at `offset`; only a fenced code block is line structure, not inline. */
function region(
  from: number,
  to: number,
  offset: number,
  kind: ProtectedRegion['kind'],
  inline = true,
): ProtectedRegion {
  return { from: from + offset, to: to + offset, kind, inline };
}

type BlockStart = 'fence' | 'heading' | 'break' | 'quote' | 'item' | 'text' | 'unknown';

/**
 * What the line starting at `first` (its first non-space) opens. `afterParagraph`: a
 * top-level paragraph is open (so `===` / `--` underline it).
 */
function blockStart(text: string, first: number, end: number, afterParagraph: boolean): BlockStart {
  const code = text.charCodeAt(first);
  if (code === BACKTICK || code === TILDE) {
    const size = runLength(text, first, end, code);
    if (size >= 3) {
      if (code === TILDE || text.indexOf('`', first + size) === -1 || text.indexOf('`', first + size) >= end)
        return 'fence';
    }
    return 'text';
  }
  if (code === 0x23 /* # */) {
    const size = runLength(text, first, end, code);
    return size <= 6 && (first + size === end || text.charCodeAt(first + size) === SPACE)
      ? 'heading'
      : 'text';
  }
  if (code === 0x3e /* > */) return 'quote';
  if (code === 0x2d /* - */ || code === 0x2a /* * */ || code === 0x5f /* _ */) {
    if (isThematicBreak(text, first, end, code)) return 'break';
  }
  if (code === 0x2d || code === 0x3d /* = */) {
    if (isUnderline(text, first, end, code)) return afterParagraph ? 'break' : 'unknown';
  }
  if (code === 0x2d || code === 0x3a /* : */ || code === 0x7c /* | */) {
    if (DELIMITER_ROW.test(text.slice(first, end))) return 'unknown';
  }
  if (code === 0x2d || code === 0x2b /* + */ || code === 0x2a) {
    const after = text.charCodeAt(first + 1);
    if (first + 1 === end) return 'unknown'; // an empty list item
    return after === SPACE ? 'item' : 'text';
  }
  if (code >= 0x30 && code <= 0x39) {
    let index = first;
    while (index < end && index - first < 10 && isDigit(text.charCodeAt(index))) index++;
    const mark = text.charCodeAt(index);
    if (index - first <= 9 && (mark === 0x2e /* . */ || mark === 0x29) /* ) */) {
      if (index + 1 === end) return 'unknown';
      if (text.charCodeAt(index + 1) === SPACE) return 'item';
    }
  }
  return 'text';
}

/** A list item's marker: the bullet, or the delimiter after an ordered item's number. */
function listMarkOf(text: string, first: number): number {
  let index = first;
  while (isDigit(text.charCodeAt(index))) index++;
  return text.charCodeAt(index);
}

/** Where a list item's text starts, or -1 when the item is outside the subset. */
function itemContent(text: string, first: number, end: number, interrupts: boolean): number {
  let index = first;
  const code = text.charCodeAt(first);
  if (isDigit(code)) {
    while (isDigit(text.charCodeAt(index))) index++;
    // An ordered item interrupts a paragraph only when it starts at 1.
    if (interrupts && text.slice(first, index) !== '1') return -1;
  }
  index++;
  let spaces = 0;
  while (index + spaces < end && text.charCodeAt(index + spaces) === SPACE) spaces++;
  if (spaces >= 5 || index + spaces === end) return -1;
  const content = index + spaces;
  if (blockStart(text, content, end, false) !== 'text' || startsNested(text, content)) return -1;
  return content;
}

/** Text in a list item or quote that could open a nested construct the scanner does not follow. */
function startsNested(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code === 0x5b /* [ */ || code === SPACE || code === 0x3d; /* = */
}

/** An ATX heading's inline text `[from, to)` and its closing sequence `[closeFrom, closeTo)` (empty if none). */
function headingContent(text: string, first: number, end: number): [number, number, number, number] {
  const size = runLength(text, first, end, 0x23);
  const from = Math.min(first + size + 1, end);
  // @lezer/markdown's closing sequence: trailing `#`s preceded by a space.
  let endOfSpace = end;
  while (endOfSpace > first && text.charCodeAt(endOfSpace - 1) === SPACE) endOfSpace--;
  let after = endOfSpace;
  while (after > first && text.charCodeAt(after - 1) === 0x23) after--;
  if (after === endOfSpace || after === first || text.charCodeAt(after - 1) !== SPACE) after = end;
  return [from, Math.max(from, after), after, after < end ? endOfSpace : after];
}

function closesFence(text: string, first: number, end: number, char: number, size: number): boolean {
  const run = runLength(text, first, end, char);
  if (run < size) return false;
  for (let index = first + run; index < end; index++) if (text.charCodeAt(index) !== SPACE) return false;
  return true;
}

function isThematicBreak(text: string, first: number, end: number, char: number): boolean {
  let count = 0;
  for (let index = first; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code === char) count++;
    else if (code !== SPACE) return false;
  }
  return count >= 3;
}

function isUnderline(text: string, first: number, end: number, char: number): boolean {
  let index = first;
  while (index < end && text.charCodeAt(index) === char) index++;
  while (index < end && text.charCodeAt(index) === SPACE) index++;
  return index === end;
}

function runLength(text: string, from: number, end: number, char: number): number {
  let index = from;
  while (index < end && text.charCodeAt(index) === char) index++;
  return index - from;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isSpace(code: number): boolean {
  return code === SPACE || code === 9 || code === NEWLINE || code === 13;
}

/** What an inline delimiter opens or closes (lezer's `InlineDelimiter` types). */
const LINK_START = 0;
const IMAGE_START = 1;
const UNDERSCORE = 2;
const ASTERISK = 3;
const TILDES = 4;

/** Lezer's `Mark.Open` and `Mark.Close` bits of a delimiter's side. */
const OPEN = 1;
const CLOSE = 2;

/**
 * A pending delimiter of lezer's inline context: a link or image opener (`side` OPEN while
 * it may still start a link, 0 once a link before its end made it inactive), or a run of
 * emphasis or strikethrough marks that may open and/or close.
 */
interface Delimiter {
  type: number;
  from: number;
  to: number;
  side: number;
  /** The run's length when it was found (lezer's `size`: the rule of three reads it). */
  size: number;
}

/**
 * The inline regions of one paragraph's text `text[from, to)`, by @lezer/markdown's
 * rules for escapes, character references, code spans and links (its `Escape`,
 * `Entity`, `InlineCode`, `Link`, `Image`, `LinkEnd`, `finishLink`, `parseURL`,
 * `parseLinkTitle`) and, with `marks`, hard breaks and emphasis and strikethrough
 * delimiters with their resolution (`Emphasis`, `HardBreak`, `Strikethrough`,
 * `resolveMarkers`, `takeContent`). Returns false for a construct outside the subset.
 */
function scanInline(
  text: string,
  from: number,
  to: number,
  offset: number,
  regions: ProtectedRegion[],
  marks: boolean,
): boolean {
  // Lezer's `parts`, without its elements (only delimiters decide anything); a null is a
  // delimiter that was used or dropped.
  const parts: (Delimiter | null)[] = [];
  const trigger = marks ? INLINE_OR_MARK_TRIGGER : INLINE_TRIGGER;
  const charAt = (index: number) => (index < to ? text.charCodeAt(index) : NaN);
  const skipSpace = (index: number) => {
    while (index < to && isSpace(text.charCodeAt(index))) index++;
    return index;
  };
  for (let pos = from; pos < to;) {
    // Jump to the next character that can start or end an inline construct.
    trigger.lastIndex = pos;
    if (!trigger.test(text) || trigger.lastIndex > to) break;
    const resumed = pos;
    pos = trigger.lastIndex - 1;
    const code = text.charCodeAt(pos);
    if (code === 0x5c /* \ */) {
      if (pos !== to - 1 && ESCAPABLE.has(text.charCodeAt(pos + 1))) {
        regions.push(region(pos, pos + 2, offset, 'escape'));
        pos += 2;
        continue;
      }
      if (marks && charAt(pos + 1) === NEWLINE) {
        regions.push(region(pos, pos + 2, offset, 'hard-break'));
        pos += 2;
        continue;
      }
    } else if (code === 0x26 /* & */) {
      ENTITY_BODY.lastIndex = pos + 1;
      if (ENTITY_BODY.test(text) && ENTITY_BODY.lastIndex <= Math.min(pos + 31, to)) {
        regions.push(region(pos, ENTITY_BODY.lastIndex, offset, 'entity'));
        pos = ENTITY_BODY.lastIndex;
        continue;
      }
    } else if (code === BACKTICK) {
      if (pos === from || text.charCodeAt(pos - 1) !== BACKTICK) {
        const close = closingBackticks(text, pos, to);
        if (close > 0) {
          regions.push(region(pos, close, offset, 'code'));
          pos = close;
          continue;
        }
      }
    } else if (code === 0x5b /* [ */) {
      parts.push({ type: LINK_START, from: pos, to: pos + 1, side: OPEN, size: 1 });
    } else if (code === 0x21 /* ! */ && charAt(pos + 1) === 0x5b) {
      parts.push({ type: IMAGE_START, from: pos, to: pos + 2, side: OPEN, size: 2 });
      pos += 2;
      continue;
    } else if (code === 0x5d /* ] */) {
      // The nearest link or image opener, as lezer's `LinkEnd` looks back for it.
      let index = parts.length - 1;
      while (index >= 0 && !isLinkOpener(parts[index])) index--;
      if (index >= 0) {
        const opener = parts[index]!;
        const after = charAt(pos + 1);
        if (opener.side === 0 || (skipSpace(opener.to) === pos && after !== 0x28 && after !== 0x5b)) {
          parts[index] = null;
          pos++;
          continue;
        }
        let end = pos + 1;
        let destination = false;
        if (after === 0x28 /* ( */) {
          let at = skipSpace(pos + 2);
          const url = parseUrlEnd(text, at, to);
          if (url > 0) {
            at = skipSpace(url);
            if (at !== url) {
              const title = parseTitleEnd(text, at, to);
              if (title > 0) at = skipSpace(title);
            }
          }
          if (charAt(at) === 0x29 /* ) */) {
            end = at + 1;
            destination = url > 0;
          }
        } else if (after === 0x5b) {
          return false; // a full reference link (`][` also sends the document away)
        }
        // Without a destination it is a shortcut link, a link only if its label is
        // defined — and a document with definitions is outside the subset.
        if (destination) {
          regions.push(region(opener.from, opener.to, offset, 'link-syntax'));
          regions.push(region(pos, end, offset, 'link-syntax'));
        }
        // The link's text is resolved on its own (`takeContent`): its delimiters cannot
        // pair with any outside it.
        if (marks) resolveDelimiters(parts, index + 1, offset, regions);
        parts.length = index;
        if (opener.type === LINK_START) {
          for (const earlier of parts) if (earlier && earlier.type === LINK_START) earlier.side = 0;
        }
        pos = end;
        continue;
      }
    } else if (code === 0x2a /* * */ || code === 0x5f /* _ */) {
      // Only reached with `marks`: lezer's `Emphasis`, a whole run of one mark.
      let end = pos + 1;
      while (end < to && text.charCodeAt(end) === code) end++;
      const flanks = flanking(text, pos, end, from, to);
      const left = (flanks & LEFT) !== 0;
      const right = (flanks & RIGHT) !== 0;
      const canOpen = left && (code === 0x2a || !right || (flanks & PUNCTUATION_BEFORE) !== 0);
      const canClose = right && (code === 0x2a || !left || (flanks & PUNCTUATION_AFTER) !== 0);
      parts.push({
        type: code === 0x2a ? ASTERISK : UNDERSCORE,
        from: pos,
        to: end,
        side: (canOpen ? OPEN : 0) | (canClose ? CLOSE : 0),
        size: end - pos,
      });
      pos = end;
      continue;
    } else if (code === TILDE) {
      // Only reached with `marks`: GFM `Strikethrough`, exactly two tildes.
      if (charAt(pos + 1) === TILDE && charAt(pos + 2) !== TILDE) {
        const flanks = flanking(text, pos, pos + 2, from, to);
        parts.push({
          type: TILDES,
          from: pos,
          to: pos + 2,
          side: (flanks & LEFT ? OPEN : 0) | (flanks & RIGHT ? CLOSE : 0),
          size: 2,
        });
        pos += 2;
        continue;
      }
    } else if (code === NEWLINE) {
      // Only reached with `marks`: two or more spaces before a line break (lezer's
      // `HardBreak` at the first of them, which no construct before it took).
      let start = pos;
      while (start > resumed && text.charCodeAt(start - 1) === SPACE) start--;
      if (pos - start >= 2) regions.push(region(start, pos + 1, offset, 'hard-break'));
    }
    pos++;
  }
  if (marks) resolveDelimiters(parts, 0, offset, regions);
  return true;
}

/** The characters an inline construct, an emphasis or strikethrough run or a hard break starts or ends with. */
const INLINE_OR_MARK_TRIGGER = /[\\&`[\]!*_~\n]/g;

function isLinkOpener(part: Delimiter | null | undefined): part is Delimiter {
  return part != null && (part.type === LINK_START || part.type === IMAGE_START);
}

/**
 * Lezer's `resolveMarkers(from)`: pairs each closing emphasis or strikethrough run with
 * the nearest opener of its type before it (the rule of three for emphasis), and pushes
 * the marks of each pair; what lies between a pair can no longer pair.
 */
function resolveDelimiters(
  parts: (Delimiter | null)[],
  from: number,
  offset: number,
  regions: ProtectedRegion[],
): void {
  for (let i = from; i < parts.length; i++) {
    const close = parts[i];
    if (!close || close.type < UNDERSCORE || (close.side & CLOSE) === 0) continue;
    const emphasis = close.type !== TILDES;
    let j = i - 1;
    let open: Delimiter | null = null;
    for (; j >= from; j--) {
      const part = parts[j];
      if (
        part &&
        (part.side & OPEN) !== 0 &&
        part.type === close.type &&
        !(
          emphasis &&
          ((close.side & OPEN) !== 0 || (part.side & CLOSE) !== 0) &&
          (part.size + close.size) % 3 === 0 &&
          (part.size % 3 !== 0 || close.size % 3 !== 0)
        )
      ) {
        open = part;
        break;
      }
    }
    if (!open) continue;
    let start = open.from;
    let end = close.to;
    if (emphasis) {
      const size = Math.min(2, open.to - open.from, close.to - close.from);
      start = open.to - size;
      end = close.from + size;
    }
    regions.push(region(start, open.to, offset, 'markup'));
    regions.push(region(close.from, end, offset, 'markup'));
    for (let k = j + 1; k < i; k++) parts[k] = null;
    parts[j] = emphasis && open.from !== start ? { ...open, to: start } : null;
    if (emphasis && close.to !== end) {
      // The rest of the closing run is looked at again as a closer.
      parts[i] = { ...close, from: end };
      i--;
    } else {
      parts[i] = null;
    }
  }
}

/** Bits of `flanking`: left- and right-flanking, and punctuation just before or after. */
const LEFT = 1;
const RIGHT = 2;
const PUNCTUATION_BEFORE = 4;
const PUNCTUATION_AFTER = 8;

/**
 * Lezer's flanking test of the delimiter run `text[start, end)` in the inline text
 * `[from, to)`: the unit before and after it (nothing counts as whitespace) tested as
 * whitespace (`/\s/`) and punctuation (`/[\p{S}|\p{P}]/u`), one UTF-16 unit each, as
 * lezer slices them.
 */
function flanking(text: string, start: number, end: number, from: number, to: number): number {
  const before = start > from ? unitClass(text.charCodeAt(start - 1)) : WHITE;
  const after = end < to ? unitClass(text.charCodeAt(end)) : WHITE;
  const sBefore = (before & WHITE) !== 0;
  const sAfter = (after & WHITE) !== 0;
  const pBefore = (before & PUNCT) !== 0;
  const pAfter = (after & PUNCT) !== 0;
  let bits = 0;
  if (!sAfter && (!pAfter || sBefore || pBefore)) bits |= LEFT;
  if (!sBefore && (!pBefore || sAfter || pAfter)) bits |= RIGHT;
  if (pBefore) bits |= PUNCTUATION_BEFORE;
  if (pAfter) bits |= PUNCTUATION_AFTER;
  return bits;
}

/** Per UTF-16 unit: KNOWN once classified, WHITE for `/\s/`, PUNCT for lezer's `Punctuation`. */
const unitClasses = new Uint8Array(0x10000);
const KNOWN = 1;
const WHITE = 2;
const PUNCT = 4;
const LEZER_PUNCTUATION = /[\p{S}|\p{P}]/u;

function unitClass(unit: number): number {
  let known = unitClasses[unit]!;
  if (known === 0) {
    const char = String.fromCharCode(unit);
    known = KNOWN | (/\s/.test(char) ? WHITE : 0) | (LEZER_PUNCTUATION.test(char) ? PUNCT : 0);
    unitClasses[unit] = known;
  }
  return known;
}

/** The end of the code span opened by the backtick run at `start`, or 0 if it is not closed. */
function closingBackticks(text: string, start: number, to: number): number {
  let pos = start + 1;
  while (pos < to && text.charCodeAt(pos) === BACKTICK) pos++;
  const size = pos - start;
  let run = 0;
  for (; pos < to; pos++) {
    if (text.charCodeAt(pos) === BACKTICK) {
      run++;
      if (run === size && (pos + 1 >= to || text.charCodeAt(pos + 1) !== BACKTICK)) return pos + 1;
    } else {
      run = 0;
    }
  }
  return 0;
}

/** @lezer/markdown's `parseURL` without the `<…>` form (a `<` sends the document away): the URL's end, or 0. */
function parseUrlEnd(text: string, start: number, to: number): number {
  let depth = 0;
  let pos = start;
  for (let escaped = false; pos < to; pos++) {
    const code = text.charCodeAt(pos);
    if (isSpace(code)) break;
    else if (escaped) escaped = false;
    else if (code === 0x28) depth++;
    else if (code === 0x29) {
      if (!depth) break;
      depth--;
    } else if (code === 0x5c) escaped = true;
  }
  return pos > start ? pos : 0;
}

/** @lezer/markdown's `parseLinkTitle`: the title's end, or 0. */
function parseTitleEnd(text: string, start: number, to: number): number {
  const open = text.charCodeAt(start);
  if (open !== 0x27 && open !== 0x22 && open !== 0x28) return 0;
  const close = open === 0x28 ? 0x29 : open;
  for (let pos = start + 1, escaped = false; pos < to; pos++) {
    const code = text.charCodeAt(pos);
    if (escaped) escaped = false;
    else if (code === close) return pos + 1;
    else if (code === 0x5c) escaped = true;
  }
  return 0;
}
