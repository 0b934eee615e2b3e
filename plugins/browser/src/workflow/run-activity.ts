import { noteActivity } from '../tabs/note-activity.js';
import { urlForAgent } from '../url/redact.js';
import { parseActionText } from './action-text.js';
import type { Attempt } from './step-attempt.js';
import { stepId, type WorkflowStep } from './workflow-ir.js';
import type { WorkflowRun } from './workflow-run.js';

/*
 * A workflow run in its tab's activity (ADR 57): that it started, each step's outcome, and how
 * it ended (a pause says why: needs-human, lease-lost, deadline). In the activity's words, as the
 * recorder writes a workflow: an element is named, a typed value — a literal of the source or an
 * input's value — never is, and a URL is redacted as the AI sees it.
 */

/** Quoted text in a step a person or the AI carries out (it may be what to type); unclosed, to the end. */
const QUOTED = /"(?:[^"\\]|\\.)*(?:"|$)|“[^”]*(?:”|$)/g;

/** A step in words: an executable action as it will act, any other step by its kind and its text. */
export function stepWords(step: WorkflowStep): string {
  if (step.kind === 'extract') return 'extract the page';
  const parsed = step.kind === 'action' ? parseActionText(step.text) : undefined;
  if (parsed?.ok === true) {
    const { command } = parsed;
    if (command.verb === 'navigate') return `navigate to ${urlForAgent(command.url)}`;
    const target = `${command.target.role ?? 'element'} “${command.target.name}”`;
    return command.verb === 'click' ? `click ${target}` : `type into ${target}`;
  }
  return `${step.kind}: ${step.text.replace(QUOTED, '“…”')}`;
}

export function noteRunStarted(run: WorkflowRun): void {
  const skipped = [...run.results.values()].filter((result) => result.status === 'skipped').length;
  noteActivity(run.tab, {
    kind: 'workflow',
    what: `workflow “${run.workflow.site}” started (${run.id})`,
    outcome: `${run.workflow.steps.length} steps${skipped === 0 ? '' : `, ${skipped} done before`}`,
  });
}

/** One attempt of a step, as it came out; a step waiting for approval is the approval's entry. */
export function noteStep(
  run: WorkflowRun,
  step: WorkflowStep,
  attempt: Exclude<Attempt, { kind: 'awaiting-approval' }>,
): void {
  noteActivity(run.tab, {
    kind: 'step',
    what: `${stepId(step)}: ${stepWords(step)}`,
    outcome: attemptWords(attempt),
  });
}

function attemptWords(attempt: Exclude<Attempt, { kind: 'awaiting-approval' }>): string {
  switch (attempt.kind) {
    case 'needs-human':
      return 'for a person or the AI to do';
    case 'declined':
      return 'approval denied';
    case 'result': {
      const { outcome } = attempt.result;
      if (outcome === 'success') {
        const effect = attempt.data?.['effect'];
        return typeof effect === 'string' ? `done: ${effect}` : 'done';
      }
      const why = attempt.reason === undefined ? '' : `: ${headOf(attempt.reason)}`;
      return outcome === 'unknown' ? `may or may not have happened${why}` : `failed${why}`;
    }
  }
}

/**
 * A reason's head, without what follows it: `TOKEN: message` gives the token, `obscured (by …)`
 * the refusal — the message and the parenthesis may hold a page's text or a step's.
 */
function headOf(reason: string): string {
  return reason.split(/:|\s\(/, 1)[0]!.trim();
}

const ENDED: Record<string, string> = {
  'needs-human': 'needs a person',
  'lease-lost': 'the person took the tab over',
  deadline: "the run's running time is spent",
  'retries-exhausted': 'tried too often',
  cancelled: 'cancelled by the client',
  superseded: 'resumed by another run',
  internal: 'stopped',
};

/** How the run ended; a pause names its step and its reason code, never its reason's text. */
export function noteRunEnded(run: WorkflowRun): void {
  const at = run.status === 'paused' && run.pausedAt !== undefined ? ` at ${stepId(run.pausedAt)}` : '';
  const code = run.reasonCode;
  noteActivity(run.tab, {
    kind: 'workflow',
    what: `workflow “${run.workflow.site}” ${run.status}${at} (${run.id})`,
    outcome: code === undefined ? run.status : `${code}: ${ENDED[code] ?? code}`,
  });
}
