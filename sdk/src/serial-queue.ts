/**
 * Runs tasks one at a time, in the order they are given: each starts once the one
 * before it has settled, whether it succeeded or failed (a failure is its caller's,
 * and never blocks the tasks after it).
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => T | Promise<T>): Promise<T> {
    const run = this.#tail.then(task, task);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Resolves once every task queued so far has settled; never rejects. */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }
}

/**
 * A `SerialQueue` per key (a document id, a ledger's writer): tasks of one key run one
 * at a time, tasks of different keys do not wait for each other. A key with nothing
 * queued is forgotten, so the queue holds only work in progress.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => T | Promise<T>): Promise<T> {
    const run = (this.#tails.get(key) ?? Promise.resolve()).then(task, task);
    const settled = run.catch(() => undefined);
    this.#tails.set(key, settled);
    void settled.then(() => {
      if (this.#tails.get(key) === settled) this.#tails.delete(key);
    });
    return run;
  }

  /** How many keys have work queued or running. */
  get size(): number {
    return this.#tails.size;
  }
}
