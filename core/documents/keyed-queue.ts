/**
 * Runs operations one at a time per key (a document id): each starts after the previous one
 * for the same key has settled, whether it succeeded or not. Keys with nothing queued are
 * forgotten, so the map holds only work in progress.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, operation: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(operation);
    this.#tails.set(key, next);
    return next.finally(() => {
      if (this.#tails.get(key) === next) this.#tails.delete(key);
    });
  }
}
