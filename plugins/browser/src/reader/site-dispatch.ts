/**
 * Which reader a page goes to (vmark-notes §5.2): the site extractors whose origins cover the
 * page's origin get the first claim — an exact origin before a wildcard, a more specific wildcard
 * (longer base host) before a broader one, then registration order — and the first whose
 * `match` says yes reads it (a `match` that throws says no). Otherwise the generic reader reads
 * any http(s) page.
 */
import type { SiteExtractor, SiteExtractorDeclaration } from '@vmark/sdk/reader';

export interface RegisteredExtractor {
  readonly pluginId: string;
  readonly declaration: SiteExtractorDeclaration;
  readonly extractor: SiteExtractor;
}

/** The extractor that reads `url`, or null for the generic reader. */
export function extractorFor(
  registered: readonly RegisteredExtractor[],
  url: URL,
): RegisteredExtractor | null {
  const ranked = registered
    .map((entry, order) => ({ entry, order, claim: claimOf(entry.declaration.origins, url) }))
    .filter((c): c is typeof c & { claim: number } => c.claim !== null)
    .sort((a, b) => b.claim - a.claim || a.order - b.order);
  for (const { entry } of ranked) {
    try {
      if (entry.extractor.match(url) === true) return entry;
    } catch {
      // A throwing match counts as no match.
    }
  }
  return null;
}

/**
 * How strongly `origins` claim `url`'s origin: an exact origin above every wildcard, a wildcard
 * by the length of its base host; null when none covers it.
 */
function claimOf(origins: readonly string[], url: URL): number | null {
  let best: number | null = null;
  for (const origin of origins) {
    let claim: number | null = null;
    if (origin === url.origin) claim = Number.MAX_SAFE_INTEGER;
    else {
      const wildcard = /^(https?:)\/\/\*\.(.+)$/.exec(origin);
      if (wildcard && wildcard[1] === url.protocol && url.host.endsWith(`.${wildcard[2]}`))
        claim = wildcard[2]!.length;
    }
    if (claim !== null && (best === null || claim > best)) best = claim;
  }
  return best;
}
