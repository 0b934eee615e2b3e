/**
 * The contract of a site extractor (vmark-notes §5.2): a plugin contributing to the browser
 * plugin's `siteExtractors` extension point. Its manifest declares each extractor statically
 * (`contributes.siteExtractors`, a `SiteExtractorDeclaration`), checked before its code runs;
 * its `activate` contributes the code (`context.contribute('siteExtractors', extractor)`).
 */
import type { ReaderResult } from './reader-result.js';

export type SiteCapability = 'read';

/** One entry of a plugin manifest's `contributes.siteExtractors`. */
export interface SiteExtractorDeclaration {
  /** `^[a-z0-9-]+$`, unique among the plugin's extractors. */
  readonly id: string;
  /** A translation key for its display name, e.g. `sites.wikipedia.name`. */
  readonly nameI18nKey?: string;
  /** The origins it claims: `https://host`, `https://host:port` or `https://*.host`; canonical, non-empty. */
  readonly origins: readonly string[];
  readonly capabilities: readonly SiteCapability[];
  /** The oldest agent API it needs; the browser refuses one newer than its own. */
  readonly minAgentApi: number;
}

/** What the plugin contributes at run time for a declared extractor of the same `id`. */
export interface SiteExtractor {
  readonly id: string;
  /** Whether this page is one it reads; a page it does not know goes to the generic reader. Throwing counts as no. */
  match(url: URL): boolean;
  /** Reader mode for the page's HTML (untrusted), fetched from `url`. */
  read(html: string, url: URL): ReaderResult | Promise<ReaderResult>;
}
