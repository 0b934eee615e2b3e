/**
 * The browser's `siteExtractors` extension point: the contract's static half is checked by
 * `checkSiteExtractors` before a contributor runs; at run time each contribution must be an
 * extractor its manifest declared (same id), with `match` and `read` functions.
 */
import type { ExtensionPoint, PluginContext } from '@vmark/sdk';
import type { SiteExtractor } from '@vmark/sdk/reader';
import { asDeclarations, checkSiteExtractors } from './site-declarations.js';
import type { RegisteredExtractor } from './site-dispatch.js';

export const SITE_EXTRACTORS = 'siteExtractors';

type Accepted = Omit<RegisteredExtractor, 'pluginId'>;

export interface SiteExtractors {
  /** The extractors of the enabled site plugins, in registration order. */
  list(): RegisteredExtractor[];
}

export function openSiteExtractors(context: PluginContext): SiteExtractors {
  const point: ExtensionPoint<Accepted> = context.declareExtensionPoint<Accepted>(SITE_EXTRACTORS, {
    validate: (declaration, { peers }) => checkSiteExtractors(declaration, peers),
    accept: (value, declaration) => {
      const extractor = value as Partial<SiteExtractor> | null;
      if (typeof extractor?.match !== 'function' || typeof extractor.read !== 'function')
        throw new Error('a site extractor needs match(url) and read(html, url) functions');
      const declared = asDeclarations(declaration).find((d) => d.id === extractor.id);
      if (declared === undefined)
        throw new Error(
          `site extractor "${String(extractor.id)}" is not declared in the manifest's contributes.siteExtractors`,
        );
      return { declaration: declared, extractor: extractor as SiteExtractor };
    },
  });
  return {
    list: () => point.contributions().map((c) => ({ pluginId: c.pluginId, ...c.value })),
  };
}
