import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { canonicalizeString } from './canonical-text.js';
import { assignIdentity, frontMatterHead, maskIdentity, readIdentity } from './identity-lines.js';

const ID = '018f3c7a-9f2e-7cc1-b302-5e9d4a6b21c7';
const ID2 = '019f758c-5482-78e1-a042-d384f28175c9';

// Literal port of the original's Rust `mask_identity` (LF text), used as the oracle.
const WS = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;
const trimEnd = (s: string): string => {
  let e = s.length;
  while (e > 0 && WS.test(s[e - 1] ?? '')) e--;
  return s.slice(0, e);
};
const trimStart = (s: string): string => {
  let b = 0;
  while (b < s.length && WS.test(s[b] ?? '')) b++;
  return s.slice(b);
};
function rustMask(text: string): string {
  if (!text.startsWith('---\n')) return text;
  const after = text.slice(4);
  let fm: string;
  let rest: string;
  const pos = after.indexOf('\n---\n');
  if (pos >= 0) [fm, rest] = [after.slice(0, pos), after.slice(pos + 5)];
  else if (after.endsWith('\n---')) [fm, rest] = [after.slice(0, -4), ''];
  else return text;
  const lines = fm.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    const line = lines[i] ?? '';
    if (trimEnd(line) === 'vmark:') {
      const kept: string[] = [];
      let j = i + 1;
      while (j < lines.length && /^[ \t]/.test(lines[j] ?? '')) {
        const t = trimStart(lines[j] ?? '');
        if (!(t.startsWith('id:') || t.startsWith('schema:'))) kept.push(lines[j] ?? '');
        j++;
      }
      if (kept.length > 0) out.push(line, ...kept);
      i = j;
    } else {
      out.push(line);
      i++;
    }
  }
  const masked = out.join('\n');
  return trimStart(trimEnd(masked)) === '' ? rest : `---\n${masked}\n---\n${rest}`;
}

describe('readIdentity', () => {
  it('no front matter', () => {
    expect(readIdentity('# Title\n')).toEqual({ id: null, schema: null, problems: [] });
    expect(readIdentity('')).toEqual({ id: null, schema: null, problems: [] });
  });

  it('front matter without vmark', () => {
    expect(readIdentity('---\ntitle: x\n---\nbody\n')).toEqual({ id: null, schema: null, problems: [] });
  });

  it('vmark with other keys around it', () => {
    const t = `---\ntitle: Elena\nvmark:\n  id: ${ID}\n  schema: character\ntags: [a]\n---\n# Elena\n`;
    expect(readIdentity(t)).toEqual({ id: ID, schema: 'character', problems: [] });
  });

  it('quoted values, comments and upper case', () => {
    const t = `---\nvmark:\n  # assigned by vmark\n  id: "${ID.toUpperCase()}" # do not edit\n  schema: 'character'\n---\n`;
    expect(readIdentity(t)).toEqual({ id: ID, schema: 'character', problems: [] });
    expect(readIdentity(`---\nvmark:\n  id: ${ID} # c\n  schema: a#b\n---\n`)).toEqual({
      id: ID,
      schema: 'a#b',
      problems: [],
    });
  });

  it('CRLF and CR input', () => {
    expect(readIdentity(`---\r\nvmark:\r\n  id: ${ID}\r\n---\r\nx`).id).toBe(ID);
    expect(readIdentity(`---\rvmark:\r\tid: ${ID}\r---\r`).id).toBe(ID);
  });

  it('vmark with only a schema', () => {
    expect(readIdentity('---\nvmark:\n  schema: note\n---\n')).toEqual({
      id: null,
      schema: 'note',
      problems: [],
    });
  });

  it('duplicates and malformed values are problems', () => {
    const dupIds = readIdentity(`---\nvmark:\n  id: ${ID}\n  id: ${ID2}\n---\n`);
    expect(dupIds.id).toBe(ID2); // the last line decides, as in the original
    expect(dupIds.problems).toHaveLength(1);
    const dupMaps = readIdentity(`---\nvmark:\n  id: ${ID}\nvmark:\n  id: ${ID2}\n---\n`);
    expect(dupMaps.id).toBe(ID);
    expect(dupMaps.problems).toHaveLength(1);
    const bad = readIdentity('---\nvmark:\n  id: not-a-uuid\n  schema: "open\n---\n');
    expect(bad).toMatchObject({ id: null, schema: null });
    expect(bad.problems).toHaveLength(2);
    const inline = readIdentity(`---\nvmark: {id: ${ID}}\n---\n`);
    expect(inline.id).toBeNull();
    expect(inline.problems).toHaveLength(1);
  });

  it('a --- that is not at the top is not front matter', () => {
    expect(readIdentity(`\n---\nvmark:\n  id: ${ID}\n---\n`).id).toBeNull();
    expect(readIdentity(`text\n---\nvmark:\n  id: ${ID}\n---\n`).id).toBeNull();
    expect(readIdentity(`\uFEFF---\nvmark:\n  id: ${ID}\n---\n`)).toMatchObject({ id: null });
  });

  it('unclosed front matter has no identity', () => {
    const r = readIdentity(`---\nvmark:\n  id: ${ID}\n`);
    expect(r.id).toBeNull();
    expect(r.problems).toHaveLength(1);
    // The second line never closes the block (original: search for "\n---\n" after "---\n").
    expect(readIdentity(`---\n---\nvmark:\n  id: ${ID}\n`).id).toBeNull();
  });

  it('a closing fence at end of file without a newline still closes', () => {
    expect(readIdentity(`---\nvmark:\n  id: ${ID}\n---`).id).toBe(ID);
  });
});

describe('assignIdentity', () => {
  it('prepends a block when there is no front matter', () => {
    expect(assignIdentity('# T\n', ID)).toBe(`---\nvmark:\n  id: ${ID}\n---\n# T\n`);
    expect(assignIdentity('', ID, 'note')).toBe(`---\nvmark:\n  id: ${ID}\n  schema: note\n---\n`);
    expect(assignIdentity('a\r\nb', ID)).toBe(`---\r\nvmark:\r\n  id: ${ID}\r\n---\r\na\r\nb`);
    // Unclosed front matter is content: a new block goes above it.
    expect(assignIdentity('---\ntitle: x\n', ID)).toBe(`---\nvmark:\n  id: ${ID}\n---\n---\ntitle: x\n`);
  });

  it('appends the map before the closing fence, keeping the line endings', () => {
    expect(assignIdentity('---\r\ntitle: x\r\n---\r\nbody', ID)).toBe(
      `---\r\ntitle: x\r\nvmark:\r\n  id: ${ID}\r\n---\r\nbody`,
    );
  });

  it('fills an existing map that lacks an id, with its indentation', () => {
    expect(assignIdentity('---\nvmark:\n    schema: note\n---\n', ID, 'other')).toBe(
      `---\nvmark:\n    id: ${ID}\n    schema: note\n---\n`,
    );
  });

  it('refuses documents that already have an id line and bad arguments', () => {
    expect(() => assignIdentity(`---\nvmark:\n  id: ${ID}\n---\n`, ID2)).toThrow(RangeError);
    expect(() => assignIdentity('---\nvmark:\n  id: junk\n---\n', ID2)).toThrow(RangeError);
    expect(() => assignIdentity('x', 'nope')).toThrow(RangeError);
    expect(() => assignIdentity('x', ID, 'a\nb')).toThrow(RangeError);
    expect(() => assignIdentity('x', ID, 'a # b')).toThrow(RangeError);
  });
});

describe('maskIdentity', () => {
  it('matches the original on its edge cases', () => {
    expect(maskIdentity(`---\ntitle: x\nvmark:\n  id: ${ID}\n---`)).toBe('---\ntitle: x\n---\n');
    expect(maskIdentity('---\n \n---\nbody')).toBe('body');
    expect(maskIdentity('---\nvmark:\n---\nbody')).toBe('body');
    expect(maskIdentity(`---\nvmark:\n  id: ${ID}\n  # keep\n---\n`)).toBe('---\nvmark:\n  # keep\n---\n');
    // One pass only: the uncovered second block is not masked (not idempotent here).
    const stacked = `---\nvmark:\n  id: ${ID}\n---\n---\nvmark:\n  id: ${ID2}\n---\n`;
    expect(maskIdentity(stacked)).toBe(`---\nvmark:\n  id: ${ID2}\n---\n`);
  });
});

// ---- properties over generated documents ---------------------------------------------

const fmLine = fc.constantFrom(
  'title: Elena',
  'tags:',
  '  - a',
  '  - b',
  'nested:',
  '  key: value',
  '  id: not-reserved-outside-vmark',
  '# a comment',
  '',
  '   ',
  'url: http://x.y/z',
  'note: "quoted: yes"',
  'vmark_other: 1',
  'text: |',
  '  ---',
  '  vmark:',
  'café: e\u0301',
);
const bodyLine = fc.constantFrom(
  '# Heading',
  'para text',
  '',
  '---',
  '  indented',
  'vmark:',
  '  id: x',
  '...',
  'tail  ',
);
const schemaOnly = fc.constantFrom(
  ['vmark:', '  schema: note'],
  ['vmark:', '  # c', '  schema: x'],
  ['vmark:'],
);

/** Canonical (LF) documents without an identity, with or without front matter. */
const doc = fc
  .record({
    fm: fc.option(fc.array(fmLine, { maxLength: 6 }), { nil: undefined }),
    mapAt: fc.option(fc.tuple(fc.nat(6), schemaOnly), { nil: undefined }),
    body: fc.array(bodyLine, { maxLength: 6 }),
    finalNewline: fc.boolean(),
    eofFence: fc.boolean(),
  })
  .map(({ fm, mapAt, body, finalNewline, eofFence }) => {
    // Bodies never start with a `---` line, so they cannot themselves become front matter.
    // After an empty front matter (`---` on the second line never closes it) a later `---`
    // would close it instead and pull body lines, `vmark:` and `  id: x` among them, into it.
    const started = body[0] === '---' ? ['x', ...body] : body;
    const b = fm?.length === 0 ? started.filter((l) => l !== '---') : started;
    const bodyText = b.join('\n') + (finalNewline && b.length > 0 ? '\n' : '');
    if (fm === undefined) return bodyText;
    const lines = [...fm];
    // A top-level line after the map keeps generated indented lines out of it.
    if (mapAt !== undefined) lines.splice(Math.min(mapAt[0], lines.length), 0, ...mapAt[1], 'after: map');
    if (eofFence && bodyText === '') return `---\n${[...lines, '---'].join('\n')}`;
    return `---\n${lines.map((l) => `${l}\n`).join('')}---\n${bodyText}`;
  });
const uuid = fc.uuid().map((u) => u.toLowerCase());
const crlf = (s: string): string => s.replace(/\n/g, '\r\n');

describe('properties', () => {
  it('maskIdentity equals the original on LF text', () => {
    fc.assert(
      fc.property(doc, uuid, (t, id) => {
        expect(maskIdentity(t)).toBe(rustMask(t));
        const a = assignIdentity(t, id, 'note');
        expect(maskIdentity(a)).toBe(rustMask(a));
      }),
      { numRuns: 500 },
    );
  });

  it('assign then read gives the id; assign then mask gives mask (exactly t when t is mask-stable)', () => {
    fc.assert(
      fc.property(
        doc,
        uuid,
        fc.option(fc.constantFrom('character', 'note'), { nil: undefined }),
        (t, id, schema) => {
          const a = assignIdentity(t, id, schema);
          expect(readIdentity(a).id).toBe(id);
          expect(maskIdentity(a)).toBe(maskIdentity(t));
          if (maskIdentity(t) === t) expect(maskIdentity(a)).toBe(t);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('masking is idempotent (no stacked front matter blocks)', () => {
    fc.assert(
      fc.property(doc, uuid, (t, id) => {
        const a = assignIdentity(t, id);
        expect(maskIdentity(maskIdentity(a))).toBe(maskIdentity(a));
        expect(maskIdentity(maskIdentity(t))).toBe(maskIdentity(t));
      }),
      { numRuns: 500 },
    );
  });

  it('CRLF documents keep CRLF and agree with the LF result after canonicalisation', () => {
    fc.assert(
      fc.property(doc, uuid, (t, id) => {
        const w = crlf(t);
        const a = assignIdentity(w, id);
        if (w.includes('\r\n')) expect(a.replace(/\r\n/g, '')).not.toContain('\n');
        expect(readIdentity(a).id).toBe(id);
        const expected = canonicalizeString(maskIdentity(t));
        expect(canonicalizeString(maskIdentity(a))).toBe(expected);
        expect(canonicalizeString(maskIdentity(w))).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('frontMatterHead holds what readIdentity reads: the same id and schema as the whole text', () => {
    // Line endings of every kind, a BOM, a combining mark after a fence, a `---` second line.
    const ending = fc.constantFrom('\n', '\r\n', '\r');
    const odd = fc.constantFrom('---', '\uFEFF---', '---\u0301', '----', 'e\u0301', '');
    const text = fc
      .tuple(doc, uuid, fc.option(fc.constantFrom('character', 'note'), { nil: undefined }), ending, odd)
      .chain(([t, id, schema, eol, extra]) =>
        fc.constantFrom(
          assignIdentity(t, id, schema).replace(/\n/g, eol),
          `${extra}${eol}${assignIdentity(t, id, schema)}`,
          `---${eol}---${eol}${assignIdentity(t, id, schema)}`,
          t.replace(/\n/g, eol),
        ),
      );
    fc.assert(
      fc.property(text, (t) => {
        const head = frontMatterHead(t);
        expect(t.startsWith(head)).toBe(true);
        const whole = readIdentity(canonicalizeString(t));
        const fromHead = readIdentity(canonicalizeString(head));
        expect([fromHead.id, fromHead.schema]).toEqual([whole.id, whole.schema]);
      }),
      { numRuns: 1000 },
    );
  });

  it('frontMatterHead stops at the closing line, and is empty without closed front matter', () => {
    expect(frontMatterHead(`---\r\nvmark:\r\n  id: ${ID}\r\n---\r\n# Body\n`)).toBe(
      `---\r\nvmark:\r\n  id: ${ID}\r\n---\r\n`,
    );
    expect(frontMatterHead('---\ntitle: x\n---')).toBe('---\ntitle: x\n---');
    expect(frontMatterHead('# No front matter\n---\n')).toBe('');
    expect(frontMatterHead('---\ntitle: never closed\n')).toBe('');
    expect(frontMatterHead('---')).toBe('');
  });
});
