import { randomUUID } from 'node:crypto';
import type { Disposable } from '@vmark/sdk';

/** Where the page fetches a text offered to it: `/doc-text/<key>` (with the page's token). */
export const DOCUMENT_TEXT_PREFIX = '/doc-text/';

/** An offer nobody fetched goes after this long, so that a page that went away pins no text. */
const OFFER_MS = 60_000;

/**
 * Texts handed to the pages by URL rather than in a WebSocket frame (ADR 100): a subscribed
 * document's UTF-8 at the version of the subscription's reply, fetched once (then forgotten),
 * under a key nobody can guess (behind the page's token as every other path).
 */
export class DocumentTexts implements Disposable {
  readonly #offered = new Map<string, { readonly bytes: Uint8Array; readonly timer: NodeJS.Timeout }>();

  /** Keeps `bytes` for one fetch; returns the path to fetch them at. */
  offer(bytes: Uint8Array): string {
    const key = randomUUID();
    const timer = setTimeout(() => this.#offered.delete(key), OFFER_MS);
    timer.unref();
    this.#offered.set(key, { bytes, timer });
    return DOCUMENT_TEXT_PREFIX + key;
  }

  /** The bytes offered at `pathname`, once; undefined when none are (any more). */
  take(pathname: string): Uint8Array | undefined {
    if (!pathname.startsWith(DOCUMENT_TEXT_PREFIX)) return undefined;
    const key = pathname.slice(DOCUMENT_TEXT_PREFIX.length);
    const offered = this.#offered.get(key);
    if (offered === undefined) return undefined;
    this.#offered.delete(key);
    clearTimeout(offered.timer);
    return offered.bytes;
  }

  dispose(): void {
    for (const { timer } of this.#offered.values()) clearTimeout(timer);
    this.#offered.clear();
  }
}
