import type { ApprovalOutcome, ApprovalRequest, Approvals, ToolCall } from '@vmark/sdk';
import type { WorkflowRun } from './workflow-run.js';

/*
 * How a run's steps are approved (vmark-notes §4.4, ADR 0044): through the same broker as a
 * hand-issued act, for the connection that started the run, with a prompt scoped to the run —
 * withdrawn when the run ends, whichever way it ends. While a prompt is open the run's clock is
 * stopped and `workflow_status` shows what it waits on.
 *
 * The run asks with its own call: its signal is the run's (a dialog closes when the run ends),
 * and it has no elicitation — the request that started the run has been answered, and a
 * question put through the client could not be taken back.
 */

export function runCall(run: WorkflowRun): ToolCall {
  const { tool, action, caller } = run.call;
  return { tool, action, caller, signal: run.signal, progress: () => {} };
}

export function runApprovals(inner: Approvals, run: WorkflowRun, target: string | undefined): Approvals {
  const call = runCall(run);
  /** The requests this run took back itself (it ended while they were asked). */
  const taken = new Set<string>();
  const withdraw = (requestId: string) => {
    if (inner.withdraw?.(requestId, call) === true) taken.add(requestId);
  };
  return {
    async request(request: ApprovalRequest): Promise<ApprovalOutcome> {
      run.clock.pause();
      run.pendingApproval = {
        operation: request.operation,
        url: request.origin ?? '',
        ...(target === undefined ? {} : { target }),
      };
      let outcome: ApprovalOutcome | undefined;
      try {
        outcome = await inner.request(request, call);
        // An allowance that arrives after the run ended is for nothing: fail closed.
        if (outcome.decision === 'allowed' && !run.running) {
          return { decision: 'denied', requestId: outcome.requestId, by: outcome.by };
        }
        return outcome;
      } finally {
        // A request still waiting (for `vmark approvals`) keeps the clock stopped: the executor waits on it.
        if (outcome?.decision === 'pending') {
          if (run.running) run.prompts.add(outcome.requestId);
          else withdraw(outcome.requestId);
        } else {
          if (run.running) delete run.pendingApproval;
          run.clock.resume();
        }
      }
    },
    hasStandingGrant: (grant) => inner.hasStandingGrant?.(grant, call) ?? false,
    // Whether the request is taken back: by the run already (it ended while asking), or now.
    withdraw: (requestId) => taken.has(requestId) || (inner.withdraw?.(requestId, call) ?? false),
  };
}
