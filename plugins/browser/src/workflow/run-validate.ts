import { ArgumentError } from '@vmark/sdk';
import { parseWorkflow } from './parse-workflow.js';
import type { Workflow } from './workflow-ir.js';

/*
 * What `workflow_run` accepts (vmark-notes §4.4), checked before anything runs, with the
 * original's messages: a bad source or input map changes nothing.
 */

export const MAX_STEPS = 25;
export const MAX_SOURCE_BYTES = 64 * 1024;
export const MAX_INPUTS = 64;
export const MAX_INPUT_BYTES = 4 * 1024;

export interface ValidRun {
  readonly workflow: Workflow;
  /** The declared inputs' values, and nothing else. */
  readonly inputs: Readonly<Record<string, string>>;
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** @throws ArgumentError with the original's message. */
export function validateRun(source: string, inputs: Readonly<Record<string, string>> | undefined): ValidRun {
  if (bytes(source) > MAX_SOURCE_BYTES) throw new ArgumentError('workflow source is too large');
  const given = inputs ?? {};
  const names = Object.keys(given);
  if (names.length > MAX_INPUTS) throw new ArgumentError(`too many inputs (max ${MAX_INPUTS})`);
  for (const name of names) {
    if (bytes(given[name]!) > MAX_INPUT_BYTES) {
      throw new ArgumentError(`input "${name}" is too large (max ${MAX_INPUT_BYTES} bytes)`);
    }
  }
  const parsed = parseWorkflow(source);
  if (!parsed.ok) {
    const codes = [...new Set(parsed.errors.map((error) => error.code))];
    throw new ArgumentError(`workflow parse failed: ${codes.join(', ')}`);
  }
  const { workflow } = parsed;
  if (workflow.steps.length > MAX_STEPS) throw new ArgumentError(`too many steps (max ${MAX_STEPS})`);
  for (const name of workflow.inputs) {
    if (!Object.hasOwn(given, name)) throw new ArgumentError(`missing input "${name}"`);
  }
  const declared = new Set(workflow.inputs);
  for (const name of names) if (!declared.has(name)) throw new ArgumentError(`undeclared input "${name}"`);
  return { workflow, inputs: Object.fromEntries(workflow.inputs.map((name) => [name, given[name]!])) };
}
