import { injectable } from 'inversify';

/**
 * What a write's answer waits for besides its own file: durable work that other parts of the
 * host start inside the write (the AI edit checkpoint of the text it replaced, ADR 60). It runs
 * alongside the file's own write and fsync; the write is acknowledged once both are done, so
 * `saved: true` also means the text it replaced can be put back after a crash.
 */
@injectable()
export class WriteAcks {
  readonly #pending = new Map<string, Set<Promise<void>>>();

  /**
   * Holds back the answers of writes to `documentId` until `durable` settles. Its failure is the
   * holder's to report: a write already on disk is not failed by it.
   */
  hold(documentId: string, durable: Promise<unknown>): void {
    let pending = this.#pending.get(documentId);
    if (pending === undefined) this.#pending.set(documentId, (pending = new Set()));
    const held: Promise<void> = durable.then(
      () => this.#release(documentId, held),
      () => this.#release(documentId, held),
    );
    pending.add(held);
  }

  /**
   * Settles once everything held for `documentId` so far has. Holds are dropped only as they
   * settle, never as they are waited for: two writes in a row each wait for their own.
   */
  settled(documentId: string): Promise<void> | undefined {
    const pending = this.#pending.get(documentId);
    if (pending === undefined) return undefined;
    return Promise.all(pending).then(() => undefined);
  }

  #release(documentId: string, held: Promise<void>): void {
    const pending = this.#pending.get(documentId);
    pending?.delete(held);
    if (pending?.size === 0) this.#pending.delete(documentId);
  }
}
