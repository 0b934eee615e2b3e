import { randomUUID } from 'node:crypto';
import type { Disposable } from '@vmark/sdk';

/** Where the page fetches a text offered to it: `/doc-text/<key>` (with the page's token). */
export const DOCUMENT_TEXT_PREFIX = '/doc-text/';

/** An offer nobody fetched goes after this long, so that a page that went away pins no text. */
const OFFER_MS = 60_000;

/** A text offered to a page: its UTF-8, and what to do once it is written to the page. */
export interface Offer {
  readonly bytes: Uint8Array;
  readonly sent: () => void;
}

/**
 * Texts handed to the pages by URL rather than in a WebSocket frame (ADR 100): a subscribed
 * document's UTF-8 at the version of the subscription's reply, fetched once (then forgotten),
 * under a key nobody can guess (behind the page's token as every other path).
 */
export class DocumentTexts implements Disposable {
  readonly #offered = new Map<string, Offer & { readonly timer: NodeJS.Timeout }>();

  /** Keeps `bytes` for one fetch (`sent` is called once they are written); returns the path to fetch them at. */
  offer(bytes: Uint8Array, sent: () => void = () => undefined): string {
    const key = randomUUID();
    const timer = setTimeout(() => this.#offered.delete(key), OFFER_MS);
    timer.unref();
    this.#offered.set(key, { bytes, sent, timer });
    return DOCUMENT_TEXT_PREFIX + key;
  }

  /** What was offered at `pathname`, once; undefined when nothing is (any more). */
  take(pathname: string): Offer | undefined {
    if (!pathname.startsWith(DOCUMENT_TEXT_PREFIX)) return undefined;
    const key = pathname.slice(DOCUMENT_TEXT_PREFIX.length);
    const offered = this.#offered.get(key);
    if (offered === undefined) return undefined;
    this.#offered.delete(key);
    clearTimeout(offered.timer);
    return { bytes: offered.bytes, sent: offered.sent };
  }

  dispose(): void {
    for (const { timer } of this.#offered.values()) clearTimeout(timer);
    this.#offered.clear();
  }
}
