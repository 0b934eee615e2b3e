/**
 * Context manifests (`contexts/<x>.json`, vmark-notes §7.4) and their flattening into the
 * view a projection reads: per-object selections and the effective visible claims.
 */
import { z } from '@vmark/sdk';
import { NIL_UUID } from '../identity/index.js';
import { uuidString } from '../ledger/index.js';
import { normUuid } from './revision-graph.js';

/** A parent chain must end within this many manifests. */
export const MAX_CONTEXT_CHAIN = 16;

export const DEFAULT_CONTEXT_ID = NIL_UUID;

/**
 * Loose: manifests are the only files rewritten in place, so a field a newer build added
 * must survive this build's rewrite. Selection values are kept as plain strings here; a bad
 * one fails only its own entry when the context is resolved, not the whole manifest.
 */
export const contextManifestSchema = z.looseObject({
  format: z.literal(0),
  id: uuidString,
  name: z.string(),
  parent: uuidString.nullish(),
  selections: z.record(z.string(), z.string()).optional(),
  enforcement: z.enum(['enforcing', 'greenhouse']).optional(),
  visible_claims: z.array(uuidString).optional(),
  git_branch: z.string().nullish(),
});

export type ContextManifest = z.infer<typeof contextManifestSchema>;

export type ParsedManifest = { readonly ok: ContextManifest } | { readonly error: string };

export function parseContextManifest(value: unknown): ParsedManifest {
  const parsed = contextManifestSchema.safeParse(value);
  if (parsed.success) return { ok: parsed.data };
  const issue = parsed.error.issues[0];
  const at = issue && issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : '';
  return { error: `manifest parse failed${at}: ${issue?.message ?? 'invalid'}` };
}

export type RevisionRef = `rev1:${string}`;

/** `live`, or a pinned `rev1:` revision. */
export type Selection = 'live' | RevisionRef;

export interface ResolvedContext {
  /** The context asked for (check-results are matched against this id). */
  readonly id: string;
  /** Explicit pins only; an object absent here is live. */
  readonly selections: ReadonlyMap<string, RevisionRef>;
  /** Additive union along the chain, child first, deduplicated. */
  readonly visibleClaims: readonly string[];
  readonly enforcement: 'enforcing' | 'greenhouse';
  /** Structural and per-selection problems, surfaced rather than guessed around. */
  readonly errors: readonly string[];
}

const REVISION = /^rev1:[0-9a-f]{64}$/;

export const isRevisionRef = (value: string): value is RevisionRef => REVISION.test(value);

/** The implicit default: all-live, greenhouse, no claims, exists without a file. */
export const IMPLICIT_DEFAULT_CONTEXT: ResolvedContext = {
  id: DEFAULT_CONTEXT_ID,
  selections: new Map(),
  visibleClaims: [],
  enforcement: 'greenhouse',
  errors: [],
};

type Chain = { readonly chain: readonly ContextManifest[] } | { readonly error: string };

function chainOf(id: string, byId: ReadonlyMap<string, ContextManifest>): Chain {
  const chain: ContextManifest[] = [];
  const seen = new Set<string>();
  let cursor: string | null = id;
  while (cursor !== null) {
    if (seen.has(cursor)) return { error: `context chain cycle at ${cursor}` };
    seen.add(cursor);
    // The implicit default needs no file: asked for or reached as a parent, it adds nothing and
    // ends the chain. A materialized `default.json` joins like any other manifest.
    if (cursor === DEFAULT_CONTEXT_ID && !byId.has(cursor)) break;
    if (chain.length >= MAX_CONTEXT_CHAIN) {
      return { error: `context chain exceeds ${MAX_CONTEXT_CHAIN} hops` };
    }
    const manifest = byId.get(cursor);
    if (!manifest) return { error: `unknown context id ${cursor}` };
    chain.push(manifest);
    cursor = manifest.parent ? normUuid(manifest.parent) : null;
  }
  return { chain };
}

function flatten(id: string, chain: readonly ContextManifest[], errors: string[]): ResolvedContext {
  const selections = new Map<string, RevisionRef>();
  const decided = new Set<string>();
  for (const manifest of chain) {
    for (const [rawObject, value] of Object.entries(manifest.selections ?? {})) {
      const object = normUuid(rawObject);
      // The nearest (child) level decides, even when its value is invalid: a broken child
      // entry degrades to live instead of silently exposing the parent's pin.
      if (decided.has(object)) continue;
      decided.add(object);
      if (value === 'live') continue;
      if (isRevisionRef(value)) selections.set(object, value);
      else errors.push(`${manifest.name}: invalid selection for ${object}: ${JSON.stringify(value)}`);
    }
  }
  const visibleClaims: string[] = [];
  for (const manifest of chain) {
    for (const claim of manifest.visible_claims ?? []) {
      const c = normUuid(claim);
      if (!visibleClaims.includes(c)) visibleClaims.push(c);
    }
  }
  // Enforcement is the context's own setting only: a parent's `enforcing` must not switch
  // a child into blocking mode without the child's own confirmation.
  const enforcement = chain[0]?.enforcement ?? 'greenhouse';
  return { id, selections, visibleClaims, enforcement, errors };
}

/**
 * Flattens context `id` over the loaded manifests. A cycle, an over-long chain or an unknown
 * id degrades to the implicit default (all live, no claims) with the error surfaced, as the
 * original does, so that both implementations answer alike for a damaged workspace. Duplicate
 * manifest ids keep the first and report the rest.
 */
export function resolveContext(id: string, manifests: readonly ContextManifest[]): ResolvedContext {
  const byId = new Map<string, ContextManifest>();
  const errors: string[] = [];
  for (const m of manifests) {
    const key = normUuid(m.id);
    if (byId.has(key)) errors.push(`${m.name}: duplicate context id ${key}`);
    else byId.set(key, m);
  }
  const wanted = normUuid(id);
  const found = chainOf(wanted, byId);
  if ('chain' in found) return flatten(wanted, found.chain, errors);
  errors.push(`${wanted}: ${found.error}; using the implicit default context`);
  return { ...IMPLICIT_DEFAULT_CONTEXT, id: wanted, errors };
}

export function selectionFor(context: ResolvedContext, object: string): Selection {
  return context.selections.get(normUuid(object)) ?? 'live';
}
