/**
 * The refs a tab has given out (`e1`, `e2`, …): numbered once per tab, never reused, so a ref
 * from before the page's generation changed is recognizably old and refused instead of naming
 * whatever element now holds its number. The elements themselves are held in the isolated
 * world of their document (world/world-refs.ts); this table knows which document each ref of
 * the current generation belongs to, and hands out numbers one document at a time.
 */
import { SerialQueue, TokenError } from '@vmark/sdk';
import type { FrameDocument } from './page-frames.js';

/** Refs remembered per generation at most: a page that keeps re-rendering cannot grow this without end. */
const MAX_REFS = 50_000;
const REF = /^e([1-9]\d{0,9})$/;

export class RefTable {
  #generation = -1;
  /** The first number of the current generation: anything below is older. */
  #first = 1;
  #next = 1;
  readonly #documents = new Map<string, FrameDocument>();
  readonly #turns = new SerialQueue();

  /**
   * Runs `assign` with the next free number for `document`'s world to number from, and
   * records the refs it used (`refsOf` its answer). One document at a time, so two never
   * share a number.
   */
  allocate<T extends { readonly next: number }>(
    generation: number,
    document: FrameDocument,
    assign: (next: number) => Promise<T>,
    refsOf: (answer: T) => readonly (string | null)[],
  ): Promise<T> {
    const run = async () => {
      this.#sync(generation);
      const result = await assign(this.#next);
      // The generation may have moved on before or while the world answered: its refs are then already old.
      if (generation === this.#generation) {
        this.#next = Math.max(this.#next, result.next);
        for (const ref of refsOf(result)) if (ref !== null) this.#record(ref, document);
      }
      return result;
    };
    return this.#turns.run(run);
  }

  /**
   * The document holding the element `ref` names in the current generation.
   * @throws TokenError `STALE_REF` for a ref of an earlier generation, `UNKNOWN_REF` for one never given out.
   */
  locate(generation: number, ref: string): FrameDocument {
    this.#sync(generation);
    const number = REF.exec(ref)?.[1];
    if (number === undefined) {
      throw new TokenError(
        'UNKNOWN_REF',
        `"${ref}" is not a ref; refs look like "e12" and come from browser_read read`,
        {
          ref,
        },
      );
    }
    if (Number(number) < this.#first) {
      throw new TokenError(
        'STALE_REF',
        `ref ${ref} is from an earlier page generation (the page has navigated since); read the page again`,
        { ref, generation },
      );
    }
    const document = this.#documents.get(ref);
    if (document === undefined) {
      throw new TokenError('UNKNOWN_REF', `ref ${ref} was not given out by this page; read the page again`, {
        ref,
      });
    }
    return document;
  }

  /** Generations only move forward: a late call about an earlier one changes nothing. */
  #sync(generation: number): void {
    if (generation <= this.#generation) return;
    this.#generation = generation;
    this.#first = this.#next;
    this.#documents.clear();
  }

  #record(ref: string, document: FrameDocument): void {
    this.#documents.set(ref, document);
    if (this.#documents.size > MAX_REFS) this.#documents.delete(this.#documents.keys().next().value!);
  }
}
