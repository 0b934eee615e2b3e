import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeIndexPayload, parseIndexPayload, type IndexPayload } from './index-payload.js';

const EDGE = {
  txf: 't',
  input: 0,
  upstream: 'u',
  upstream_path: 'u.md',
  pinned: 'p',
  downstream: 'd',
  downstream_path: null,
  downstream_rev: 'r',
  confidence: 'direct',
  state: 'version-stale',
  prior_waivers: 0,
  kind: 'dependency',
  frozen_downstream: false,
  actionable: true,
};

function payload(files: IndexPayload['files']): IndexPayload {
  return {
    workspace: { root: '/w', dev: '1', ino: '2' },
    segments: [{ name: 'a.jsonl', size: 10, parsed: 10, tailLength: 10, tail: 'ab' }],
    files,
    coverage: '{}',
    git: 'null',
    lastHead: null,
    observedPaths: [['o', 'moved.md']],
    context: 'c',
    until: null,
    edges: [EDGE],
  };
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Text that a field could be misread from: empty, quoted, tabs, line breaks, backslashes. */
const tricky = fc.oneof(
  fc.constantFrom('', '"', '""', '\t', '\n', '\r\n', '\\', '"quoted".md', 'a\tb.md', 'a\nb.md', 'ü/ß.md'),
  fc.string({ unit: fc.constantFrom('a', '/', '"', '\t', '\n', '\\', ':', 'é', ' ') }),
);

describe('the index payload as text (format 3)', () => {
  it('reads back what it wrote, whatever the paths and digests hold', () => {
    const row = fc.record({
      signature: fc.option(fc.constantFrom('1:2:3:4:5', '65024:3925297:608:1796476859915449504:1')),
      digest: fc.option(fc.record({ id: tricky, schema: fc.option(tricky), contentHash: tricky })),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(tricky, { maxLength: 12 }),
        fc.array(row, { minLength: 12, maxLength: 12 }),
        (names, rows) => {
          const paths = [...names].sort(compare);
          const files = {
            paths,
            digests: paths.map((_, i) => rows[i]?.digest ?? null),
            signatures: paths.map((_, i) => rows[i]?.signature ?? null),
          };
          expect(parseIndexPayload(encodeIndexPayload(payload(files)))).toEqual(payload(files));
        },
      ),
      { numRuns: 200 },
    );
  });

  const sound = encodeIndexPayload(
    payload({
      paths: ['a.md', 'b/c.md'],
      digests: [{ id: 'i', schema: null, contentHash: 'sha256:x' }, null],
      signatures: ['1:2:3:4:5', null],
    }),
  );

  it('reads a sound text', () => {
    expect(parseIndexPayload(sound)?.files.paths).toEqual(['a.md', 'b/c.md']);
  });

  const spoiled: [string, string][] = [
    ['a row missing', sound.slice(0, sound.lastIndexOf('\n'))],
    ['a row too many', `${sound}\nc.md\t\t\t\t`],
    ['a field too many', sound.replace('b/c.md\t', 'b/c.md\t\t')],
    ['a field too few', sound.replace('b/c.md\t', 'b/c.md')],
    ['rows out of the walk order', sound.replace('a.md', 'z.md')],
    ['a path twice', sound.replace('b/c.md', 'a.md')],
    ['an identity without a content hash', sound.replace('\tsha256:x', '\t')],
    ['a content hash without an identity', sound.replace('\t\t\t\t', '\t\t\t\tsha256:y')],
    ['a field quoted badly', sound.replace('a.md', '"a.md')],
    ['a head of another shape', sound.replace('"files":2', '"files":"2"')],
    ['no head', sound.slice(sound.indexOf('\n') + 1)],
    [
      'the previous format (one JSON document)',
      JSON.stringify({
        ...payload({ paths: [], digests: [], signatures: [] }),
        cache: [],
        walk: { files: [], coverage: '{}' },
      }),
    ],
  ];
  for (const [what, text] of spoiled)
    it(`is no payload with ${what}`, () => {
      expect(parseIndexPayload(text)).toBeNull();
    });
});
