import { type ChangeSet, Text } from '@codemirror/state';

/**
 * A document's text as the store holds it: a string, a rope (CodeMirror's `Text`), or both,
 * each built from the other only when first asked for and then kept. An editor's keystroke is
 * applied to the rope (a few nodes, not a copy of the text); a write, a read from disk or a
 * reader that needs the whole text works with the string. Immutable, like both forms.
 * Lines are split and joined at `\n` only, the editors' one line separator, so positions in
 * either form are the same offsets (a `\r` stays a character of its line).
 */
export class DocumentText {
  #string: string | undefined;
  #rope: Text | undefined;
  /** The UTF-8 bytes the string was decoded from, kept until an editor's first frame takes them. */
  #utf8: Uint8Array | undefined;
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
   * The text `string` that `bytes` decode to exactly (a read from disk): the first `takeUtf8`
   * sends these bytes rather than encoding the string again (10 MB: tens of ms and a copy).
   * The caller vouches for the decoding; a leading byte order mark, which the decoder drops,
   * must not be in `bytes`.
   */
  static decoded(string: string, bytes: Uint8Array): DocumentText {
    const text = new DocumentText(string, undefined);
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
    return this.#string !== undefined ? this.#string.length : this.#rope!.length;
  }

  /** The whole text as one string: built once, on first use. */
  get string(): string {
    this.#string ??= this.#rope!.sliceString(0, this.#rope!.length, '\n');
    return this.#string;
  }

  /**
   * The text as UTF-8: the bytes it was read from the first time (then let go, so that a
   * document no editor shows does not hold its file twice for long), else encoded.
   */
  takeUtf8(): Uint8Array {
    const kept = this.#utf8;
    this.#utf8 = undefined;
    return kept ?? Buffer.from(this.string, 'utf8');
  }

  get rope(): Text {
    this.#rope ??= Text.of(this.#string!.split('\n'));
    return this.#rope;
  }

  /** The characters in [from, to), without building the whole string. */
  slice(from: number, to: number = this.length): string {
    return this.#string !== undefined
      ? this.#string.slice(from, to)
      : this.#rope!.sliceString(from, to, '\n');
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
