import { type ChangeSet, Text } from '@codemirror/state';

/** Well-formed UTF-8 only reaches it (`readTextBytes` checked it); fatal all the same. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A document's text as the store holds it: a string, a rope (CodeMirror's `Text`), or both,
 * each built from the other only when first asked for and then kept; or, read from disk and
 * not yet asked for, the UTF-8 bytes it decodes to (ADR 100). An editor's keystroke is
 * applied to the rope (a few nodes, not a copy of the text); a write, a read from disk or a
 * reader that needs the whole text works with the string. Immutable, like every form.
 * Lines are split and joined at `\n` only, the editors' one line separator, so positions in
 * either form are the same offsets (a `\r` stays a character of its line).
 */
export class DocumentText {
  #string: string | undefined;
  #rope: Text | undefined;
  /**
   * The UTF-8 bytes this text is (a read from disk): its only form until first read, and
   * kept for an editor's first frame (`takeUtf8`) until that has taken them.
   */
  #utf8: Uint8Array | undefined;
  /** `takeUtf8` has given the bytes: they go once the text no longer needs them. */
  #utf8Taken = false;
  /**
   * Set when this text is `base` with `changes` applied: an equality check against the base
   * reads the changes only. Weak, so that a chain of keystrokes does not keep every text alive.
   */
  readonly #from: { readonly base: WeakRef<DocumentText>; readonly changes: ChangeSet } | undefined;

  private constructor(
    string: string | undefined,
    rope: Text | undefined,
    from?: { readonly base: WeakRef<DocumentText>; readonly changes: ChangeSet },
  ) {
    this.#string = string;
    this.#rope = rope;
    this.#from = from;
  }

  static of(string: string): DocumentText {
    return new DocumentText(string, undefined);
  }

  /**
   * The text `bytes` decode to (a read from disk, checked to be well-formed UTF-8), decoded
   * when first read: the first `takeUtf8` sends these bytes as they are, so an editor's first
   * frame needs no decoding and no encoding (10 MB: about 100 ms of CPU each). A leading byte
   * order mark, which the text leaves out, is decoded at once.
   */
  static ofUtf8(bytes: Uint8Array): DocumentText {
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
      return DocumentText.of(utf8.decode(bytes));
    const text = new DocumentText(undefined, undefined);
    text.#utf8 = bytes;
    return text;
  }

  /** This text with `changes` applied; the caller checks that they span it. */
  apply(changes: ChangeSet): DocumentText {
    return new DocumentText(undefined, changes.apply(this.rope), { base: new WeakRef(this), changes });
  }

  /** The changes this text was made from `base` with (`apply`), or null when it was not. */
  changesSince(base: DocumentText): ChangeSet | null {
    return this.#from !== undefined && this.#from.base.deref() === base ? this.#from.changes : null;
  }

  get length(): number {
    return this.#string === undefined && this.#rope !== undefined ? this.#rope.length : this.string.length;
  }

  /** The whole text as one string: built once, on first use. */
  get string(): string {
    if (this.#string !== undefined) return this.#string;
    if (this.#rope !== undefined) {
      this.#string = this.#rope.sliceString(0, this.#rope.length, '\n');
    } else {
      // Never an empty text for lack of a form: a decoder given nothing would answer ''.
      if (this.#utf8 === undefined) throw new Error('DocumentText holds no form of its text');
      this.#string = utf8.decode(this.#utf8);
      if (this.#utf8Taken) this.#utf8 = undefined;
    }
    return this.#string;
  }

  /**
   * The text as UTF-8: the bytes it was read from the first time (then let go once the text
   * is decoded, so that a document no editor shows does not hold its file twice for long),
   * else encoded.
   */
  takeUtf8(): Uint8Array {
    const kept = this.#utf8;
    if (kept === undefined) return Buffer.from(this.string, 'utf8');
    this.#utf8Taken = true;
    // Still the text's only form: kept to decode from.
    if (this.#string !== undefined) this.#utf8 = undefined;
    return kept;
  }

  get rope(): Text {
    this.#rope ??= Text.of(this.string.split('\n'));
    return this.#rope;
  }

  /** The characters in [from, to), without building the whole string from a rope. */
  slice(from: number, to: number = this.length): string {
    return this.#string === undefined && this.#rope !== undefined
      ? this.#rope.sliceString(from, to, '\n')
      : this.string.slice(from, to);
  }

  /**
   * The first `count` characters (all of a shorter text), without decoding the whole text
   * from its bytes: a reader of the front matter does not pay for the body.
   */
  head(count: number): string {
    const bytes = this.#utf8;
    if (this.#string !== undefined || this.#rope !== undefined || bytes === undefined) {
      return this.slice(0, Math.min(count, this.length));
    }
    // A character of one UTF-16 unit takes at most 3 bytes, one of two units 4: the bytes up to
    // the first character to start at or after count hold more than `count` units.
    let end = Math.min(bytes.length, 3 * count + 4);
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end++;
    return end === bytes.length
      ? this.string.slice(0, count)
      : utf8.decode(bytes.subarray(0, end)).slice(0, count);
  }

  equals(other: DocumentText | string): boolean {
    if (other === this) return true;
    if (typeof other !== 'string' && other.#from?.base.deref() === this) return other.#leavesBase(this);
    if (typeof other !== 'string' && this.#from?.base.deref() === other) return this.#leavesBase(other);
    if (other.length !== this.length) return false;
    return (typeof other === 'string' ? other : other.string) === this.string;
  }

  /** Whether the changes this text was made with replace every range by what it held. */
  #leavesBase(base: DocumentText): boolean {
    const { changes } = this.#from!;
    let same = true;
    changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
      if (same && (toA - fromA !== inserted.length || base.slice(fromA, toA) !== inserted.toString()))
        same = false;
    });
    return same;
  }
}
