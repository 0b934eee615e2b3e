/**
 * The defuddle corpus (real pages converted to Markdown, in the shared corpora): on
 * every file, each transform keeps the protected regions byte for byte and is
 * idempotent, and `cjk-format` never refuses. And each output is, byte for byte, the one
 * the transforms gave before their integrity check and narrow passes were made cheaper
 * (issue 18): `corpus-outputs.json` holds the first 16 hex digits of the SHA-256 of the
 * earlier outputs.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyTransform, protectedTexts, TRANSFORM_KINDS } from './index.js';

// plugins/document/src/cjk/ → the repository root is four levels up; shared/ is its sibling.
const CORPUS = fileURLToPath(new URL('../../../../../shared/corpora/defuddle/expected/', import.meta.url));

const EARLIER_OUTPUTS = JSON.parse(
  readFileSync(fileURLToPath(new URL('./corpus-outputs.json', import.meta.url)), 'utf8'),
) as Record<string, Record<string, string>>;

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

const files = existsSync(CORPUS)
  ? readdirSync(CORPUS)
      .filter((name) => name.endsWith('.md'))
      .sort()
  : [];

describe('defuddle corpus', () => {
  it('is present', () => {
    expect(files.length, `no .md files in ${CORPUS}`).toBeGreaterThan(0);
  });

  describe.each(files)('%s', (name) => {
    const input = readFileSync(`${CORPUS}${name}`, 'utf8');
    const regions = protectedTexts(input);

    it.each(TRANSFORM_KINDS)('%s keeps protected regions and is idempotent', (kind) => {
      const once = applyTransform(kind, input);
      expect(protectedTexts(once)).toEqual(regions);
      expect(applyTransform(kind, once)).toBe(once);
    });

    it.each(TRANSFORM_KINDS)('%s gives the output it gave before', (kind) => {
      expect(EARLIER_OUTPUTS[name]?.[kind], `no recorded output for ${name}`).toBeDefined();
      expect(digest(applyTransform(kind, input))).toBe(EARLIER_OUTPUTS[name]?.[kind]);
    });
  });
});
