/**
 * Schemas of the bodies of the entry kinds format 0 knows (vmark-notes §7.3). Objects are
 * loose: a field added by a newer writer within format 0 must not get a line quarantined, and
 * the entry keeps it (readers hand on the parsed JSON, not the schema's output). Fields shown
 * as `…|null` also accept absence, as a serde `Option` field does in the original kernel.
 */
import { z } from '@vmark/sdk';
import { parseTime } from './time.js';

/** Hyphenated UUID of any version (the nil UUID names the implicit default context). */
export const uuidString = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'not a UUID');

export const revisionId = z.string().regex(/^rev1:[0-9a-f]{64}$/, 'not a rev1: revision id');
export const sha256Hash = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'not a sha256: hash');
export const rfc3339 = z.string().refine((s) => parseTime(s) !== null, 'not an RFC 3339 date-time');

const nonBlank = z.string().refine((s) => s.trim().length > 0, 'must not be blank');

/** An edge is addressed by the transformation entry that declared it and the input's index. */
export const edgeRef = z.looseObject({ txf: uuidString, input: z.number().int().min(0).max(0xffff_ffff) });

export const edgeKind = z.enum(['dependency', 'conformance', 'supersession', 'part-of', 'mention']);

const OPERATOR_INTENT = /^operator:[a-z][a-z0-9-]*$/;

export const transformationBody = z.looseObject({
  inputs: z.array(
    z.looseObject({
      object: uuidString,
      revision: revisionId,
      // `incidental` reads are never recorded, so only these two roles can appear.
      role: z.enum(['direct', 'contextual']),
      kind: edgeKind.optional(),
    }),
  ),
  outputs: z
    .array(
      z.looseObject({
        object: uuidString,
        revision: revisionId,
        content_hash: sha256Hash,
        parents: z.array(revisionId),
      }),
    )
    .min(1, 'a transformation must have at least one output'),
  agent: z.looseObject({ type: z.enum(['human', 'model', 'external', 'git']), id: z.string().optional() }),
  intent: z.looseObject({
    kind: z
      .string()
      .min(1)
      .refine(
        (k) => !k.startsWith('operator:') || OPERATOR_INTENT.test(k),
        'operator intent must be operator:<[a-z][a-z0-9-]*>',
      ),
    summary: z.string(),
    prompt_hash: z.string().optional(),
  }),
  confidence: z.enum(['exact', 'inferred', 'unknown']),
});

export const navigationBody = z.looseObject({
  git: z.looseObject({
    op: z.enum(['checkout', 'branch-switch', 'reset', 'detach', 'worktree-switch']),
    from: z.string().min(1),
    to: z.string().min(1),
    // A detached HEAD has no ref.
    ref: z.string().nullish(),
  }),
});

const resolutionActor = z.looseObject({ type: z.enum(['human', 'agent']), id: z.string() });

const resolutionFields = {
  edge: edgeRef,
  upstream_object: uuidString,
  pinned: revisionId,
  resolved_against: revisionId,
  actor: resolutionActor,
  reason: z.string().nullish(),
  expires: rfc3339.nullish(),
  delegation: uuidString.optional(),
};

/** Only a human resolves on their own authority; anyone else must name the grant they act under. */
function delegatedUnlessHuman(
  body: { actor: { type: string }; delegation?: string | undefined },
  ctx: z.core.$RefinementCtx,
): void {
  if (body.actor.type !== 'human' && body.delegation === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['delegation'],
      message: 'a non-human actor must carry delegation',
    });
  }
}

export const ratificationBody = z.looseObject(resolutionFields).superRefine(delegatedUnlessHuman);

export const waiverBody = z
  .looseObject({ ...resolutionFields, reason: nonBlank })
  .superRefine(delegatedUnlessHuman);

export const checkResultBody = z.looseObject({
  edge: edgeRef,
  pinned: revisionId,
  checked_against: revisionId,
  verdict: z.enum(['no-contradiction', 'contradiction', 'unknown']),
  model: z.string(),
  prompt_version: z.string(),
  evidence: z.array(z.looseObject({ object: uuidString, quote: z.string(), loc: z.string() })),
  confidence: z.number().min(0).max(1),
  context: uuidString,
  claims_fingerprint: sha256Hash,
  downgraded: z
    .looseObject({ verdict: z.enum(['no-contradiction', 'contradiction', 'unknown']), reason: z.string() })
    .optional(),
});

export const claimBody = z.looseObject({
  claim: uuidString,
  statement: z.string(),
  valid_at: rfc3339,
  invalid_at: rfc3339.nullish(),
  established_by: z.array(z.looseObject({ object: uuidString, revision: revisionId })),
  supersedes: uuidString.nullish(),
  maturity: z.enum(['draft', 'established']),
  // The digest gives the claim actor only as `{…}`; require no more than a resolution actor's shape.
  actor: z.looseObject({ type: z.string().min(1), id: z.string() }),
});

export const objectRegisteredBody = z.looseObject({
  object: uuidString,
  path: z.string().min(1),
  schema: z.string().nullish(),
  // Element shape not pinned down by the digest: keep whatever is there.
  derived_from: z.array(z.unknown()),
});

/** Advisory findings; the digest fixes no fields, so any object body is accepted. */
export const diagnosticBody = z.looseObject({});

export const delegationScope = z.enum(['resolve.accept-newer', 'resolve.waive']);

export const delegationBody = z.looseObject({
  delegation: uuidString,
  actor: z.looseObject({ type: z.literal('human'), id: z.string() }),
  delegate: z.looseObject({ type: z.literal('external'), id: nonBlank }),
  // Empty scope is how a grant is revoked, so it is valid here; "future expiry, non-empty
  // scope" are rules for creating a grant, checked where grants are created, not on read.
  scope: z.array(delegationScope),
  expires: rfc3339,
  supersedes: uuidString.nullish(),
});

const MAX_NOTE_BYTES = 4 * 1024;

export const flagJudgmentBody = z.looseObject({
  edge: edgeRef,
  judgment: z.enum(['relevant', 'noise', 'unsure']),
  note: z
    .string()
    .refine((s) => Buffer.byteLength(s, 'utf8') <= MAX_NOTE_BYTES, 'note exceeds 4 KiB')
    .nullish(),
});

export const bodySchemas = {
  transformation: transformationBody,
  navigation: navigationBody,
  ratification: ratificationBody,
  waiver: waiverBody,
  'check-result': checkResultBody,
  claim: claimBody,
  'object-registered': objectRegisteredBody,
  diagnostic: diagnosticBody,
  delegation: delegationBody,
  'flag-judgment': flagJudgmentBody,
} as const;

export type KnownKind = keyof typeof bodySchemas;
export type BodyOf<K extends KnownKind> = z.infer<(typeof bodySchemas)[K]>;

export function isKnownKind(kind: string): kind is KnownKind {
  return Object.hasOwn(bodySchemas, kind);
}
