import type { SiteExtractor } from '@vmark/sdk/reader';
import { expect, it } from 'vitest';
import { extractorFor, type RegisteredExtractor } from './site-dispatch.js';

function site(
  id: string,
  origins: string[],
  match: SiteExtractor['match'] = () => true,
): RegisteredExtractor {
  return {
    pluginId: `site-${id}`,
    declaration: { id, origins, capabilities: ['read'], minAgentApi: 1 },
    extractor: { id, match, read: () => ({ title: id, byline: null, url: '', markdown: id, textLength: 0 }) },
  };
}
const idFor = (registered: RegisteredExtractor[], url: string) =>
  extractorFor(registered, new URL(url))?.declaration.id ?? null;

it('lets an exact origin claim a page before any wildcard, whatever the registration order', () => {
  const registered = [
    site('all-wiki', ['https://*.wikipedia.org']),
    site('english', ['https://en.wikipedia.org']),
  ];
  expect(idFor(registered, 'https://en.wikipedia.org/wiki/X')).toBe('english');
  expect(idFor(registered, 'https://de.wikipedia.org/wiki/X')).toBe('all-wiki');
});

it('prefers the more specific wildcard, then registration order', () => {
  const registered = [
    site('broad', ['https://*.example.com']),
    site('narrow', ['https://*.docs.example.com']),
    site('narrow-too', ['https://*.docs.example.com']),
  ];
  expect(idFor(registered, 'https://api.docs.example.com/')).toBe('narrow');
  expect(idFor(registered, 'https://blog.example.com/')).toBe('broad');
});

it('matches origins exactly: scheme, host and port; a wildcard never covers its base host', () => {
  const registered = [
    site('secure', ['https://example.com']),
    site('sub', ['https://*.example.com']),
    site('port', ['http://127.0.0.1:8080']),
  ];
  expect(idFor(registered, 'http://example.com/')).toBeNull();
  expect(idFor(registered, 'https://example.com:8443/')).toBeNull();
  expect(idFor(registered, 'https://evil-example.com/')).toBeNull();
  expect(idFor(registered, 'http://127.0.0.1:8080/a')).toBe('port');
  expect(idFor(registered, 'http://127.0.0.1:8081/a')).toBeNull();
});

it('passes over an extractor whose match says no or throws, to the next claim and then to none', () => {
  const registered = [
    site('thrower', ['https://example.com'], () => {
      throw new Error('boom');
    }),
    site('refuser', ['https://example.com'], () => false),
    site('taker', ['https://*.com']),
  ];
  expect(idFor(registered, 'https://example.com/')).toBe('taker');
  expect(idFor(registered.slice(0, 2), 'https://example.com/')).toBeNull();
});
