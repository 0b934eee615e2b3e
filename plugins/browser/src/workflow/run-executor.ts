import { originForAgent } from '../url/redact.js';
import { noteApproval } from '../tabs/note-activity.js';
import { noteStep, stepWords } from './run-activity.js';
import { runCall } from './run-approvals.js';
import { decideAfterResult, MAX_RETRIES } from './safety.js';
import { type Attempt, attemptStep, type StepServices } from './step-attempt.js';
import { stepEffect } from './step-effect.js';
import type { WorkflowStep } from './workflow-ir.js';
import type { StepResult, WorkflowRun } from './workflow-run.js';
import type { WriteLedger } from './write-ledger.js';

/*
 * Runs a workflow's steps in order (vmark-notes §4.4): skipping what is already done, trying a
 * step again only when the safety core says nothing was done, pausing for a person whenever an
 * outcome is unknown or a step is theirs, and stopping when the running time is spent. Before
 * every attempt the run must still hold the tab (a person taking it over pauses the run).
 */

export interface ExecutorServices extends StepServices {
  readonly ledger: WriteLedger;
  /** How long a run waiting for `vmark approvals` waits between looks at the answer. */
  readonly approvalPollMs: number;
  /** Pause before a retry, growing with each (a covering banner may go away). */
  readonly retryDelayMs: number;
}

export async function executeRun(run: WorkflowRun, services: ExecutorServices): Promise<void> {
  try {
    for (const step of run.workflow.steps) {
      if (run.results.get(step.index)?.status === 'skipped') continue;
      const done = await runStep(run, step, services);
      if (!done || !run.running) return;
    }
    run.end('completed');
  } catch (error) {
    run.end('failed', 'internal', error instanceof Error ? error.message.split('\n')[0] : String(error));
  }
}

/** One step to its end: true when the run goes on to the next. */
async function runStep(run: WorkflowRun, step: WorkflowStep, services: ExecutorServices): Promise<boolean> {
  const effect = stepEffect(step.kind);
  const result = run.result(step);
  run.current = step;
  for (;;) {
    if (!run.running) return false;
    if (run.tab.closed !== null) {
      run.end('failed', 'internal', `the tab was closed (${run.tab.closed})`, step);
      return false;
    }
    if (run.clock.expired()) {
      run.end('paused', 'deadline', "the run's running-time budget is spent", step);
      return false;
    }
    const attempt = await attemptStep(run, step, services);
    if (attempt.kind === 'awaiting-approval' && !run.running) {
      // The run ended while it was being asked: the request is taken back (now, or by the run's
      // approvals already), not waited on.
      services.approvals.withdraw?.(attempt.requestId, runCall(run));
      noteApproval(run.tab, stepWords(step), attempt.requestId, 'withdrawn: the run ended');
      return false;
    }
    if (attempt.kind === 'awaiting-approval') {
      await awaitApproval(run, attempt, services.approvalPollMs);
      continue; // The same attempt again: the person's answer is found by asking the same.
    }
    run.clock.resume();
    noteStep(run, step, attempt);
    result.attempts += attempt.kind === 'result' ? 1 : 0;
    if (attempt.kind !== 'result') {
      note(result, 'failed', attempt.reason);
      run.end('paused', 'needs-human', attempt.reason, step);
      return false;
    }
    const decision = decideAfterResult(effect.write, attempt.result);
    if (decision === 'done') {
      note(result, 'success', undefined, attempt.data);
      // Recorded even if the run was ended meanwhile: the write happened, and must not happen twice.
      if (effect.write) services.ledger.record(run.tab.id, run.ledgerId, step.index);
      return true;
    }
    note(result, attempt.result.outcome === 'unknown' ? 'unknown' : 'failed', attempt.reason);
    if (!run.running) return false;
    if (decision === 'stop-and-ask' || !effect.retryable) {
      run.end('paused', 'needs-human', stopReason(step, attempt), step);
      return false;
    }
    if (result.attempts > MAX_RETRIES) {
      run.end(
        'paused',
        'retries-exhausted',
        `step-${step.index} failed ${result.attempts} times (${attempt.reason ?? 'failed'}); a person must look`,
        step,
      );
      return false;
    }
    await pause(run, services.retryDelayMs * result.attempts);
  }
}

function stopReason(step: WorkflowStep, attempt: Extract<Attempt, { kind: 'result' }>): string {
  const why = attempt.reason ?? attempt.result.outcome;
  return attempt.result.outcome === 'unknown'
    ? `step-${step.index} may or may not have happened (${why}); check the page before going on`
    : `step-${step.index} needs a person (${why})`;
}

function note(
  result: StepResult,
  status: StepResult['status'],
  reason?: string,
  data?: StepResult['data'],
): void {
  result.status = status;
  if (reason === undefined) delete result.reason;
  else result.reason = reason;
  if (data === undefined) delete result.data;
  else result.data = data;
}

/** Waits, with the run's clock stopped, until a person may have answered (or the run ended). */
async function awaitApproval(
  run: WorkflowRun,
  attempt: Extract<Attempt, { kind: 'awaiting-approval' }>,
  pollMs: number,
): Promise<void> {
  run.clock.pause();
  run.prompts.add(attempt.requestId);
  run.pendingApproval ??= {
    operation: attempt.operation,
    url: originForAgent(attempt.url),
    ...(attempt.target === undefined ? {} : { target: attempt.target }),
  };
  await pause(run, pollMs);
}

/** `ms`, or less when the run ends first. */
function pause(run: WorkflowRun, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (!run.running) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      run.signal.removeEventListener('abort', done);
      resolve();
    }
    run.signal.addEventListener('abort', done);
  });
}
