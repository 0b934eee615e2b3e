import { canonicalEncode } from './canonical-encode.js';
import type { Workflow } from './workflow-ir.js';

/*
 * The completed-write ledger's key for a run (vmark-notes §4.4): `sourceHash + "+" + inputsHash`.
 * The source hash is of the PARSED workflow — its site, its input names (sorted), its trigger
 * and its steps' kinds and texts — so line numbers, list markers, spacing and unknown front
 * matter keys do not make another workflow of the same one.
 */

/** Two FNV-1a 32-bit mixes (seeds 2166136261 and 0x9e3779b9), in base 36, joined by `:`. */
export function runHash(text: string): string {
  return `${fnv1a(text, 2166136261).toString(36)}:${fnv1a(text, 0x9e3779b9).toString(36)}`;
}

function fnv1a(text: string, seed: number): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return hash >>> 0;
}

export function sourceHash(workflow: Workflow): string {
  return runHash(
    canonicalEncode({
      site: workflow.site,
      inputs: [...workflow.inputs].sort(),
      trigger: workflow.trigger,
      steps: workflow.steps.map((step) => ({ kind: step.kind, text: step.text })),
    }),
  );
}

/** An idempotency key: what is done (`scope`) and with what, in one canonical text. */
export function idempotencyKey(scope: string, value: unknown): string {
  return `${scope}:${canonicalEncode(value)}`;
}

export function inputsHash(inputs: Readonly<Record<string, string>>): string {
  return runHash(idempotencyKey('inputs', { ...inputs }));
}

export function ledgerId(workflow: Workflow, inputs: Readonly<Record<string, string>>): string {
  return `${sourceHash(workflow)}+${inputsHash(inputs)}`;
}
