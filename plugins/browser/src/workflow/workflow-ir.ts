/*
 * The browser workflow language's IR (vmark-notes §4.1): what `parseWorkflow` returns and
 * `printWorkflow` writes. The runner, the completed-write ledger and the recorder all speak it.
 */

/** Execution tiers (api → action → goal, least to most autonomous), the human gate, the reader. */
export const STEP_KINDS = ['api', 'action', 'goal', 'confirm', 'extract'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export interface WorkflowStep {
  /** 1-based among the steps (comments and blank lines do not count). */
  readonly index: number;
  readonly kind: StepKind;
  /** The step's text, trimmed, never empty. */
  readonly text: string;
  /** 1-based line of the source it came from. */
  readonly line: number;
}

/** A declared input's name (the `{input}` of an action's text is stricter: no `-`). */
export const INPUT_NAME = /^[a-zA-Z_][\w-]*$/;

export interface Workflow {
  readonly site: string;
  readonly inputs: readonly string[];
  readonly trigger?: string;
  readonly steps: readonly WorkflowStep[];
}

export const ERROR_CODES = [
  'missing-front-matter',
  'unterminated-front-matter',
  'malformed-front-matter',
  'missing-site',
  'duplicate-front-matter-key',
  'malformed-inputs',
  'invalid-input-name',
  'duplicate-input-name',
  'malformed-step',
  'unknown-step-kind',
  'no-steps',
] as const;
export const WARNING_CODES = ['unknown-front-matter-key', 'undeclared-variable'] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
export type WarningCode = (typeof WARNING_CODES)[number];

export type WorkflowDiagnostic =
  | { readonly line: number; readonly code: ErrorCode; readonly message: string; readonly severity: 'error' }
  | {
      readonly line: number;
      readonly code: WarningCode;
      readonly message: string;
      readonly severity: 'warning';
    };
export type WorkflowError = Extract<WorkflowDiagnostic, { severity: 'error' }>;
export type WorkflowWarning = Extract<WorkflowDiagnostic, { severity: 'warning' }>;

/** Warnings come on both outcomes; a source with any error has no workflow. */
export type WorkflowParse =
  | { readonly ok: true; readonly workflow: Workflow; readonly warnings: readonly WorkflowWarning[] }
  | {
      readonly ok: false;
      readonly errors: readonly WorkflowError[];
      readonly warnings: readonly WorkflowWarning[];
    };

/** The engine's id of a step: `step-<index>`. */
export function stepId(step: Pick<WorkflowStep, 'index'>): string {
  return `step-${step.index}`;
}
