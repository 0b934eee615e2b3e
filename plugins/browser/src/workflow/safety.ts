/*
 * The run's safety core (vmark-notes §4.4, R8a): after each attempt of a step, whether it is
 * done, may be tried again, or must stop and ask. An outcome nobody can vouch for is never
 * retried by itself: a click that may have submitted a form is not clicked again.
 */

export type AttemptOutcome = 'success' | 'failed' | 'unknown';

export interface AttemptResult {
  readonly outcome: AttemptOutcome;
  /**
   * Whether what the step was for holds anyway: `false` when nothing was done (the target was
   * covered, hidden or not found), `undefined` when no one can say.
   */
  readonly postconditionMet?: boolean;
}

export type Decision = 'done' | 'retry' | 'stop-and-ask';

/** Retries of one step after its first attempt. */
export const MAX_RETRIES = 2;

export function decideAfterResult(write: boolean, result: AttemptResult): Decision {
  switch (result.outcome) {
    case 'success':
      return write && result.postconditionMet === false ? 'stop-and-ask' : 'done';
    case 'unknown':
      return 'stop-and-ask';
    case 'failed':
      if (!write) return 'retry';
      if (result.postconditionMet === true) return 'done';
      if (result.postconditionMet === false) return 'retry';
      return 'stop-and-ask';
    default:
      // An outcome outside the contract.
      return 'stop-and-ask';
  }
}
