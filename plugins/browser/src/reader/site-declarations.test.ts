import { describe, expect, it } from 'vitest';
import { canonicalOrigin, checkSiteExtractors, CURRENT_AGENT_API } from './site-declarations.js';

const valid = { id: 'docs', origins: ['https://docs.example.com'], capabilities: ['read'], minAgentApi: 1 };
const messages = (declaration: unknown, peers: Parameters<typeof checkSiteExtractors>[1] = []) =>
  checkSiteExtractors(declaration, peers).map((d) => d.message);

describe('checkSiteExtractors', () => {
  it('accepts a valid declaration, wildcards and ports included', () => {
    expect(
      messages([
        valid,
        { ...valid, id: 'wiki', origins: ['https://*.wiki.example', 'http://127.0.0.1:8080'] },
      ]),
    ).toEqual([]);
  });

  it.each([
    [undefined, 'must be a non-empty array of site extractor declarations'],
    [[], 'must be a non-empty array of site extractor declarations'],
    [[{ ...valid, id: 'Docs!' }], 'extractor "Docs!": id must match /^[a-z0-9-]+$/'],
    [[valid, { ...valid, origins: ['https://other.example'] }], 'extractor "docs" is declared twice'],
    [[{ ...valid, origins: [] }], 'extractor "docs": origins must be a non-empty list'],
    [
      [valid, { ...valid, id: 'again' }],
      'extractor "again": origin "https://docs.example.com" is listed twice',
    ],
    [
      [{ ...valid, origins: ['https://Docs.Example.com/'] }],
      'extractor "docs": origin "https://Docs.Example.com/" is not canonical (write "https://docs.example.com")',
    ],
    [
      [{ ...valid, origins: ['https://docs.example.com:443'] }],
      'extractor "docs": origin "https://docs.example.com:443" is not canonical (write "https://docs.example.com")',
    ],
    [
      [{ ...valid, origins: ['https://docs.example.com/path'] }],
      'extractor "docs": origin "https://docs.example.com/path" is not canonical (write "https://host" or "https://*.host")',
    ],
    [
      [{ ...valid, origins: ['ftp://docs.example.com'] }],
      'extractor "docs": origin "ftp://docs.example.com" is not canonical (write "https://host" or "https://*.host")',
    ],
    [
      [{ ...valid, origins: ['https://*.*.example.com'] }],
      'extractor "docs": origin "https://*.*.example.com" is not canonical (write "https://host" or "https://*.host")',
    ],
    [
      [{ ...valid, origins: [42] }],
      'extractor "docs": origin 42 is not canonical (write "https://host" or "https://*.host")',
    ],
    [
      [{ ...valid, origins: ['https://a.example', 'https://a.example'] }],
      'extractor "docs": origin "https://a.example" is listed twice',
    ],
    [
      [{ ...valid, capabilities: [] }],
      'extractor "docs": capabilities must be a non-empty list of distinct values from: read',
    ],
    [
      [{ ...valid, capabilities: ['read', 'read'] }],
      'extractor "docs": capabilities must be a non-empty list of distinct values from: read',
    ],
    [
      [{ ...valid, capabilities: ['publish'] }],
      'extractor "docs": capabilities must be a non-empty list of distinct values from: read',
    ],
    [[{ ...valid, minAgentApi: 0 }], 'extractor "docs": minAgentApi must be a positive integer'],
    [
      [{ ...valid, minAgentApi: CURRENT_AGENT_API + 1 }],
      `extractor "docs" needs agent API ${CURRENT_AGENT_API + 1}; this browser offers ${CURRENT_AGENT_API}`,
    ],
    [[{ ...valid, nameI18nKey: 7 }], 'extractor "docs": nameI18nKey must be a string'],
  ])('refuses %j', (declaration, message) => {
    expect(messages(declaration)).toEqual([message]);
  });

  it('refuses an origin a plugin taking precedence claims exactly, and lets overlapping wildcards through', () => {
    const peers = [
      {
        pluginId: 'site-wikipedia',
        declaration: [{ ...valid, id: 'wikipedia', origins: ['https://*.wikipedia.org'] }],
      },
    ];
    expect(messages([{ ...valid, origins: ['https://*.wikipedia.org'] }], peers)).toEqual([
      'extractor "docs": origin "https://*.wikipedia.org" is already claimed by plugin "site-wikipedia"',
    ]);
    expect(messages([{ ...valid, origins: ['https://en.wikipedia.org'] }], peers)).toEqual([]);
  });
});

describe('canonicalOrigin', () => {
  it.each([
    ['https://example.com', 'https://example.com'],
    ['HTTPS://EXAMPLE.COM', 'https://example.com'],
    ['https://example.com.', 'https://example.com'],
    ['https://*.Example.com', 'https://*.example.com'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['https://user@example.com', null],
    ['https://example.com/?q', null],
    ['example.com', null],
  ])('%s → %s', (text, canonical) => expect(canonicalOrigin(text)).toBe(canonical));
});
