/**
 * A value derived from some state, kept while the key of that state stays the same (the
 * "index" of vmark-notes §7.1, in memory): a warm call with nothing changed only compares keys.
 */
export class Keyed<T> {
  #held: { readonly key: string; readonly value: T } | undefined;

  /** The kept value while `key` is unchanged and `fresh` (if given) still holds for it, else `derive()`. */
  get(key: string, derive: () => T, fresh: (value: T) => boolean = () => true): T {
    if (this.#held?.key !== key || !fresh(this.#held.value)) this.#held = { key, value: derive() };
    return this.#held.value;
  }
}
