import { type Approvals, isRefusal, isTokenError } from '@vmark/sdk';
import { act } from '../acting/act.js';
import type { ActRequest } from '../acting/act-args.js';
import type { ActReason } from '../acting/act-target.js';
import { MAX_WAIT_MS } from '../navigation/navigation-result.js';
import type { Navigator } from '../navigation/navigator.js';
import { withDeadline } from '../perception/deadline.js';
import { named } from '../perception/wait-for.js';
import type { PageReader } from '../reader/page-reader.js';
import { type ActionTarget, parseActionText } from './action-text.js';
import { runApprovals, runCall } from './run-approvals.js';
import type { AttemptResult } from './safety.js';
import type { WorkflowStep } from './workflow-ir.js';
import type { WorkflowRun } from './workflow-run.js';

/*
 * One attempt of one step (vmark-notes §4.4). Deterministic steps run in the host: `extract`
 * through the reader, an executable `action:` through the same navigate and verified act a
 * client would call by hand, approved as those are. Everything else is for a person or the AI
 * (`needs-human`). What came of the attempt is said in the safety core's terms.
 */

export interface StepServices {
  readonly navigator: Navigator;
  readonly reader: PageReader;
  readonly approvals: Approvals;
}

export type Attempt =
  | {
      readonly kind: 'result';
      readonly result: AttemptResult;
      readonly reason?: string;
      readonly data?: Readonly<Record<string, unknown>>;
    }
  /** Nothing was done: the step is not one the host runs by itself. */
  | { readonly kind: 'needs-human'; readonly reason: string }
  /** Nothing was done yet: a person has still to answer (the request waits for `vmark approvals`). */
  | {
      readonly kind: 'awaiting-approval';
      readonly requestId: string;
      readonly operation: string;
      readonly url: string;
      readonly target?: string;
    }
  /** Nothing was done: the person declined. */
  | { readonly kind: 'declined'; readonly reason: string };

/** How long an extract may take before the page counts as not answering. */
const EXTRACT_DEADLINE_MS = 20_000;
/** A page title in a step's data: page-derived, so bounded. */
const MAX_TITLE = 200;

/** Refusals after which nothing was done and trying again may work (the page may settle). */
const RETRYABLE: ReadonlySet<ActReason> = new Set(['obscured', 'hidden', 'offscreen']);
/** Errors of an act or navigation after which nothing was done (a taken-over tab is refused before any input). */
const NOTHING_DONE: ReadonlySet<string> = new Set([
  'LEASE_LOST',
  'NOT_FOUND',
  'STALE_REF',
  'STALE_COMMAND',
  'UNKNOWN_REF',
  'NAVIGATION_FAILED',
]);

const failed = (postconditionMet: boolean | undefined, reason: string): Attempt => ({
  kind: 'result',
  result: { outcome: 'failed', ...(postconditionMet === undefined ? {} : { postconditionMet }) },
  reason,
});

export async function attemptStep(
  run: WorkflowRun,
  step: WorkflowStep,
  services: StepServices,
): Promise<Attempt> {
  switch (step.kind) {
    case 'extract':
      return extract(run, services);
    case 'action':
      return action(run, step, services);
    default:
      return {
        kind: 'needs-human',
        reason: `step-${step.index} is a ${step.kind} step, for a person or the AI to carry out: ${step.text}`,
      };
  }
}

async function extract(run: WorkflowRun, services: StepServices): Promise<Attempt> {
  try {
    const page = await withDeadline(services.reader.extractTab(run.tab), EXTRACT_DEADLINE_MS, 'extract');
    return {
      kind: 'result',
      result: { outcome: 'success' },
      data: {
        title: [...page.title].slice(0, MAX_TITLE).join(''),
        textLength: page.textLength,
        truncated: page.truncated,
      },
    };
  } catch (error) {
    return failed(false, `the page could not be read: ${messageOf(error)}`);
  }
}

async function action(run: WorkflowRun, step: WorkflowStep, services: StepServices): Promise<Attempt> {
  const parsed = parseActionText(step.text);
  if (!parsed.ok) {
    return {
      kind: 'needs-human',
      reason:
        parsed.code === 'not-executable'
          ? `step-${step.index} is not in the executable grammar, for the AI to carry out: ${step.text}`
          : `step-${step.index} cannot run (${parsed.code}): ${parsed.message}`,
    };
  }
  const { command } = parsed;
  try {
    if (command.verb === 'navigate') {
      // Asked as the run's, like an act below (the shared posture asks for each new origin); the
      // status names the origin only, as the URL may carry what the workflow's author typed.
      const approvals = runApprovals(services.approvals, run, undefined);
      const loaded = await services.navigator.navigate(
        run.tab,
        command.url,
        MAX_WAIT_MS,
        runCall(run),
        approvals,
      );
      return { kind: 'result', result: { outcome: 'success' }, data: { url: loaded.url } };
    }
    const target = await resolveTarget(run, command.target);
    if ('attempt' in target) return target.attempt;
    let request: ActRequest;
    if (command.verb === 'click') {
      request = { operation: 'click', target: { kind: 'role', ...target } };
    } else {
      const { value } = command;
      // Own properties only: an undeclared `{constructor}` is not Object's.
      if (value.kind === 'input' && !Object.hasOwn(run.inputs, value.name)) {
        return {
          kind: 'needs-human',
          reason: `step-${step.index} types {${value.name}}, which the workflow does not declare`,
        };
      }
      const text = value.kind === 'literal' ? value.text : run.inputs[value.name]!;
      request = { operation: 'type', target: { kind: 'role', ...target }, text };
    }
    const approvals = runApprovals(services.approvals, run, `${target.role} "${target.name}"`);
    const acted = await act(run.tab, request, approvals, runCall(run));
    if ('reason' in acted.result) {
      const { reason } = acted.result;
      const by = acted.result.by === undefined ? '' : ` (${acted.result.by})`;
      // Covered, hidden, scrolled away: nothing was pressed. Ambiguous, disabled and the rest: a person decides.
      return failed(RETRYABLE.has(reason) ? false : undefined, `${reason}${by}`);
    }
    if (acted.result.effect === 'nothing-observable') await lateNavigation(run);
    await loaded(run);
    return {
      kind: 'result',
      result: { outcome: 'success' },
      data: { ...(acted.result.effect === undefined ? {} : { effect: acted.result.effect }), url: acted.url },
    };
  } catch (error) {
    return fromError(error);
  }
}

/**
 * After an act that set the page loading (a click that submits a form, seen or not by the act
 * itself), the next step acts on the new page: its load is waited for, within a navigation's
 * bound. A page that does not load in time is acted on as it is — the next step's checks decide.
 */
async function loaded(run: WorkflowRun): Promise<void> {
  const { tab } = run;
  // Checked and listened for in one turn: the load cannot slip in between.
  if (!tab.loading) return;
  await tab.page.waitForEvent('load', { timeout: MAX_WAIT_MS }).catch(() => undefined);
}

/** How long a click that showed no effect is given to start a navigation (a form's submission). */
const LATE_NAVIGATION_MS = 1_000;

/**
 * The act watches its click's effect for a bounded moment; a form's submission can start after
 * it, and the next step (a `navigate` above all) would cut it off. So a click that showed nothing
 * is given a moment more: a navigation of the tab's page that starts in it is waited for.
 */
async function lateNavigation(run: WorkflowRun): Promise<void> {
  const { page } = run.tab;
  await page
    .waitForRequest((request) => request.isNavigationRequest() && request.frame() === page.mainFrame(), {
      timeout: LATE_NAVIGATION_MS,
    })
    .then(() => page.waitForEvent('load', { timeout: MAX_WAIT_MS }))
    .catch(() => undefined);
}

/** A recorded locator without a role takes the one a fresh read gives the name, if just one does. */
async function resolveTarget(
  run: WorkflowRun,
  target: ActionTarget,
): Promise<{ role: string; name: string } | { attempt: Attempt }> {
  if (target.role !== undefined) return { role: target.role, name: target.name };
  const { snapshot } = await run.tab.perception.read(run.tab.url);
  const roles = new Set(
    snapshot.filter((e) => e.ref !== undefined && named(e, e.role, target.name)).map((e) => e.role),
  );
  if (roles.size === 1) return { role: [...roles][0]!, name: target.name };
  if (roles.size === 0)
    return { attempt: failed(false, `not-found: nothing on the page is named "${target.name}"`) };
  return {
    attempt: failed(undefined, `ambiguous: elements of ${roles.size} roles are named "${target.name}"`),
  };
}

function fromError(error: unknown): Attempt {
  if (isRefusal(error) && error.structured.needsApproval === true) {
    const { operation, url, requestId, denied } = error.structured;
    if (denied === true)
      return { kind: 'declined', reason: `the user declined '${String(operation)}' on ${String(url)}` };
    return {
      kind: 'awaiting-approval',
      requestId: String(requestId),
      operation: String(operation),
      url: String(url),
    };
  }
  if (isTokenError(error)) {
    if (NOTHING_DONE.has(error.token)) return failed(false, `${error.token}: ${error.message}`);
    // Refused for good (the network guard): nothing was done, and trying again changes nothing.
    if (error.token === 'PERMISSION_DENIED') return failed(undefined, `${error.token}: ${error.message}`);
  }
  // A timeout, a lost page, anything else: no one can say what happened.
  return { kind: 'result', result: { outcome: 'unknown' }, reason: messageOf(error) };
}

function messageOf(error: unknown): string {
  if (isTokenError(error)) return `${error.token}: ${error.message}`;
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
