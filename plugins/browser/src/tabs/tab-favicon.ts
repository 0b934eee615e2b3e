/**
 * A browser tab's picture in the editor's tab strip (ADR 56): the page's `<link rel=icon>`, else
 * `/favicon.ico` of its origin, fetched by the page itself — in vmark's isolated world, so through
 * the browser's own network path and its guard (the proxy, or the remote guard's pause), with the
 * page's CORS rules and no cookies — never by the host. What comes back is untrusted: at most
 * MAX_FAVICON_BYTES, and kept only when its bytes are a PNG, ICO, GIF, JPEG or WebP picture
 * (the Content-Type is not believed). SVG is refused: it is markup, and the strip takes pictures.
 * Cleared when a new document starts loading; looked for again when it has loaded.
 */
import type { Page } from 'playwright-core';
import type { IsolatedWorld } from '../perception/isolated-world.js';
import { TIMED_OUT, within } from '../time-bound.js';

export const MAX_FAVICON_BYTES = 32 * 1024;
/** How long the page may take to hand over its icon. */
const FAVICON_MS = 5000;

/**
 * Runs in the page's isolated world: finds the icon's address and reads at most `limit` bytes of
 * it, as base64; null when there is none, it is not http(s) or data:, it fails, or it is larger.
 */
const FETCH_ICON = `async (limit) => {
  if (!/^https?:$/.test(location.protocol)) return null;
  const link = [...document.querySelectorAll('link[rel][href]')].find((l) => l.relList.contains('icon'));
  let address;
  try { address = new URL(link ? link.getAttribute('href') : '/favicon.ico', document.baseURI); }
  catch { return null; }
  if (!/^(https?|data):$/.test(address.protocol)) return null;
  const aborted = new AbortController();
  const timer = setTimeout(() => aborted.abort(), ${FAVICON_MS - 500});
  try {
    const response = await fetch(address.href, { credentials: 'omit', signal: aborted.signal });
    if (!response.ok || response.body === null) return null;
    const reader = response.body.getReader();
    const chunks = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) { await reader.cancel(); return null; }
      chunks.push(value);
    }
    let binary = '';
    for (const chunk of chunks) for (let i = 0; i < chunk.length; i += 8192)
      binary += String.fromCharCode(...chunk.subarray(i, i + 8192));
    return btoa(binary);
  } catch { return null; } finally { clearTimeout(timer); }
}`;

/** The picture type its first bytes say, for the formats the strip shows; null for any other. */
export function faviconType(bytes: Uint8Array): string | null {
  const starts = (...prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
  const ascii = (at: number, text: string) => [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0x00, 0x00, 0x01, 0x00)) return 'image/x-icon';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  return null;
}

/** The bytes a page handed over as a `data:image/…` URL, or null when they are no picture the strip takes. */
export function faviconDataUrl(base64: unknown): string | null {
  if (typeof base64 !== 'string' || base64.length === 0) return null;
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0 || bytes.length > MAX_FAVICON_BYTES) return null;
  const type = faviconType(bytes);
  return type === null ? null : `data:${type};base64,${bytes.toString('base64')}`;
}

export class TabFavicon {
  #icon: string | null = null;
  /** Bumped with each new document: a look-up for an older one is dropped. */
  #document = 0;

  constructor(
    page: Page,
    private readonly world: IsolatedWorld,
    private readonly changed: () => void,
  ) {
    page.on('request', (request) => {
      if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
      this.#document++;
      if (this.#icon === null) return;
      this.#icon = null;
      this.changed();
    });
    page.on('load', () => void this.#lookUp());
  }

  /** A `data:image/…` URL of the page's icon, or null (none, not found yet, or refused). */
  get dataUrl(): string | null {
    return this.#icon;
  }

  async #lookUp(): Promise<void> {
    const mine = ++this.#document;
    let found: unknown;
    try {
      found = await within(this.world.evaluate(FETCH_ICON, MAX_FAVICON_BYTES), FAVICON_MS);
    } catch {
      // The page went on or closed meanwhile: its next load looks again.
      return;
    }
    const icon = found === TIMED_OUT ? null : faviconDataUrl(found);
    if (mine !== this.#document || icon === this.#icon) return;
    this.#icon = icon;
    this.changed();
  }
}
