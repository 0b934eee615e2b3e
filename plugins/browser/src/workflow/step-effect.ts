import type { StepKind } from './workflow-ir.js';

/*
 * Whether a step may change the site, read from its kind alone (vmark-notes §4.1): never from the
 * words of its text, which a page or a prompt could choose. Every kind is a write unless it is
 * known to read, so a new kind is guarded until someone says otherwise.
 */

export interface StepEffect {
  /** A write step that succeeded is ledgered and never re-submitted by a re-run. */
  readonly write: boolean;
  /** A failed attempt may be tried again; the human gate pauses instead. */
  readonly retryable: boolean;
}

const READ_KINDS: ReadonlySet<StepKind> = new Set(['extract', 'confirm']);

export function stepEffect(kind: StepKind): StepEffect {
  return { write: !READ_KINDS.has(kind), retryable: kind !== 'confirm' };
}
