import { describe, expect, it } from 'vitest';
import { newRevision } from './revision.js';

describe('newRevision', () => {
  it('is rev- and eight alphanumerics', () => {
    for (let i = 0; i < 200; i++) expect(newRevision()).toMatch(/^rev-[A-Za-z0-9]{8}$/);
  });

  it('does not repeat', () => {
    const seen = new Set(Array.from({ length: 5000 }, newRevision));
    expect(seen.size).toBe(5000);
  });
});
