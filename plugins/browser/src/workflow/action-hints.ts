import { type ActionFailureCode, parseActionText } from './action-text.js';
import type { Workflow } from './workflow-ir.js';

/*
 * What the editor says about `action:` steps a run cannot carry out by itself (vmark-notes §4.2).
 * These are no parse diagnostics — the file is valid — but the author should know before a run:
 * prose pauses for the AI (`needs-human`), a broken locator or value is an error pause.
 */

export interface ActionHint {
  readonly line: number;
  readonly code: ActionFailureCode;
  readonly message: string;
  /** Prose is allowed (information); a broken grammar sentence is likely a mistake (warning). */
  readonly severity: 'info' | 'warning';
}

export function actionHints(workflow: Workflow): ActionHint[] {
  const hints: ActionHint[] = [];
  for (const step of workflow.steps) {
    if (step.kind !== 'action') continue;
    const parsed = parseActionText(step.text);
    if (parsed.ok) continue;
    hints.push(
      parsed.code === 'not-executable'
        ? {
            line: step.line,
            code: parsed.code,
            message: `A run pauses here for the AI: this action is ${parsed.message}.`,
            severity: 'info',
          }
        : {
            line: step.line,
            code: parsed.code,
            message: `A run stops here: ${parsed.message}.`,
            severity: 'warning',
          },
    );
  }
  return hints;
}
