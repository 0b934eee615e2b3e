/** Undoes a subscription. */
export type Unsubscribe = () => void;

/** A minimal typed event source: the renderer's parts talk through these, never through globals. */
export class Emitter<T> {
  readonly #listeners = new Set<(value: T) => void>();

  on(listener: (value: T) => void): Unsubscribe {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(value: T): void {
    for (const listener of [...this.#listeners]) listener(value);
  }
}
