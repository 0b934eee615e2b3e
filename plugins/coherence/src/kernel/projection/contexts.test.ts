import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CONTEXT_ID,
  parseContextManifest,
  resolveContext,
  selectionFor,
  type ContextManifest,
} from './contexts.js';

const uuid = (n: number): string => `0190a000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
const rev = (n: number): string => `rev1:${n.toString(16).padStart(64, '0')}`;
const [A, B] = [uuid(0xa1), uuid(0xa2)];
const [K1, K2] = [uuid(0xe1), uuid(0xe2)];

const manifest = (
  id: string,
  parent: string | null,
  extra: Partial<ContextManifest> = {},
): ContextManifest => ({
  format: 0,
  id,
  name: `ctx-${id.slice(-3)}`,
  parent,
  ...extra,
});

describe('parseContextManifest', () => {
  it('keeps unknown fields and defaults nothing away', () => {
    const parsed = parseContextManifest({
      format: 0,
      id: uuid(1),
      name: 'x',
      parent: null,
      future: { a: 1 },
    });
    expect(parsed).toEqual({ ok: { format: 0, id: uuid(1), name: 'x', parent: null, future: { a: 1 } } });
  });
  it('rejects a wrong enforcement', () => {
    expect(parseContextManifest({ format: 0, id: uuid(1), name: 'x', enforcement: 'strict' })).toHaveProperty(
      'error',
    );
  });
});

describe('resolveContext', () => {
  it('the implicit default is all-live, greenhouse, no claims', () => {
    const ctx = resolveContext(DEFAULT_CONTEXT_ID, []);
    expect(ctx).toMatchObject({
      id: DEFAULT_CONTEXT_ID,
      visibleClaims: [],
      enforcement: 'greenhouse',
      errors: [],
    });
    expect(selectionFor(ctx, A)).toBe('live');
  });

  it('default.json overrides the implicit default', () => {
    const ctx = resolveContext(DEFAULT_CONTEXT_ID, [
      manifest(DEFAULT_CONTEXT_ID, null, { selections: { [A]: rev(1) }, visible_claims: [K1] }),
    ]);
    expect(selectionFor(ctx, A)).toBe(rev(1));
    expect(ctx.visibleClaims).toEqual([K1]);
  });

  it('inherits selections child-over-parent and claims additively; enforcement is not inherited', () => {
    const parent = manifest(uuid(1), null, {
      selections: { [A]: rev(1), [B]: rev(2) },
      visible_claims: [K1],
      enforcement: 'enforcing',
    });
    const child = manifest(uuid(2), uuid(1), { selections: { [A]: 'live' }, visible_claims: [K2, K1] });
    const ctx = resolveContext(uuid(2), [parent, child]);
    expect(selectionFor(ctx, A)).toBe('live');
    expect(selectionFor(ctx, B)).toBe(rev(2));
    expect(ctx.visibleClaims).toEqual([K2, K1]);
    expect(ctx.enforcement).toBe('greenhouse');
    expect(resolveContext(uuid(1), [parent, child]).enforcement).toBe('enforcing');
  });

  it('a context whose parent is the implicit default (no default.json) keeps its own pins, claims and enforcement', () => {
    const child = manifest(uuid(2), DEFAULT_CONTEXT_ID, {
      selections: { [A]: rev(1) },
      visible_claims: [K1],
      enforcement: 'enforcing',
    });
    const ctx = resolveContext(uuid(2), [child]);
    expect(ctx.errors).toEqual([]);
    expect(selectionFor(ctx, A)).toBe(rev(1));
    expect(ctx.visibleClaims).toEqual([K1]);
    expect(ctx.enforcement).toBe('enforcing');
  });

  it('a cycle falls back to the implicit default (all live, no claims) with an error, as the original does', () => {
    const ctx = resolveContext(uuid(1), [
      manifest(uuid(1), uuid(2), { selections: { [A]: rev(1) } }),
      manifest(uuid(2), uuid(1)),
      manifest(DEFAULT_CONTEXT_ID, null, { selections: { [B]: rev(3) } }),
    ]);
    expect(ctx.errors).toHaveLength(1);
    expect(ctx.errors[0]).toMatch(/cycle/);
    expect(selectionFor(ctx, A)).toBe('live');
    // Not even default.json's pins: a damaged chain answers as if no context existed.
    expect(selectionFor(ctx, B)).toBe('live');
    expect(ctx.visibleClaims).toEqual([]);
  });

  it('a chain longer than 16 manifests overflows; 16 is fine', () => {
    const chain = (n: number): ContextManifest[] =>
      Array.from({ length: n }, (_, i) =>
        manifest(uuid(i + 1), i + 1 < n ? uuid(i + 2) : null, { visible_claims: [K1] }),
      );
    expect(resolveContext(uuid(1), chain(16)).errors).toEqual([]);
    const over = resolveContext(uuid(1), chain(17));
    expect(over.errors[0]).toMatch(/exceeds 16/);
    expect(over.visibleClaims).toEqual([]);
  });

  it('an unknown id and an invalid selection are surfaced', () => {
    expect(resolveContext(uuid(9), []).errors[0]).toMatch(/unknown context id/);
    const parent = manifest(uuid(1), null, { selections: { [A]: rev(1) } });
    const child = manifest(uuid(2), uuid(1), { selections: { [A]: 'rev-a1b2c3' } });
    const ctx = resolveContext(uuid(2), [parent, child]);
    expect(selectionFor(ctx, A)).toBe('live');
    expect(ctx.errors[0]).toMatch(/invalid selection/);
  });
});
