/**
 * The defuddle corpus (real pages converted to Markdown, in the shared corpora): on
 * every file, each transform keeps the protected regions byte for byte and is
 * idempotent, and `cjk-format` never refuses.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyTransform, protectedTexts, TRANSFORM_KINDS } from './index.js';

// plugins/document/src/cjk/ → the repository root is four levels up; shared/ is its sibling.
const CORPUS = fileURLToPath(new URL('../../../../../shared/corpora/defuddle/expected/', import.meta.url));

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
  });
});
