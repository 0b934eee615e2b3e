import type { ToolCall } from '@vmark/sdk';
import type { BrowserTab } from '../tabs/browser-tab.js';
import type { RunClock } from './run-clock.js';
import type { Workflow, WorkflowStep } from './workflow-ir.js';
import { stepId } from './workflow-ir.js';

/*
 * One run of a workflow on a tab, as `workflow_status` reports it (vmark-notes §4.5). The
 * executor moves it along; the registry ends it. Once it has ended, nothing moves it again.
 */

export type RunStatus = 'running' | 'paused' | 'completed' | 'failed' | 'cancelled' | 'superseded';
export type ReasonCode =
  'lease-lost' | 'needs-human' | 'retries-exhausted' | 'deadline' | 'cancelled' | 'superseded' | 'internal';
export type StepStatus = 'running' | 'success' | 'failed' | 'unknown' | 'skipped';

export interface StepResult {
  readonly index: number;
  status: StepStatus;
  attempts: number;
  reason?: string;
  data?: Readonly<Record<string, unknown>>;
}

/** The approval a run waits on: the operation, the page's origin, the element. */
export interface PendingApproval {
  readonly operation: string;
  readonly url: string;
  readonly target?: string;
}

export interface RunStatusReport {
  readonly runId: string;
  readonly status: RunStatus;
  readonly stepCount: number;
  readonly firstStep: string | null;
  readonly completedSteps: number;
  readonly skippedSteps: number;
  readonly pausedAt?: string;
  readonly reasonCode?: ReasonCode;
  readonly reason?: string;
  readonly pendingApproval?: PendingApproval;
  readonly resumedFrom?: string;
  readonly stepResults: readonly StepResult[];
  readonly url: string;
}

export class WorkflowRun {
  status: RunStatus = 'running';
  reasonCode?: ReasonCode;
  reason?: string;
  pausedAt?: WorkflowStep;
  pendingApproval?: PendingApproval;
  /** The step being run, where a pause from outside (a person taking the tab) stops it. */
  current?: WorkflowStep;
  readonly results = new Map<number, StepResult>();
  /** Requests of this run still waiting for `vmark approvals`: withdrawn when it ends. */
  readonly prompts = new Set<string>();
  /** Aborted when the run ends: its open prompts are withdrawn, its waits end. */
  readonly #ended = new AbortController();
  /** The tab's last URL while the run had it (the tab may close). */
  #url: string;

  constructor(
    readonly id: string,
    readonly tab: BrowserTab,
    readonly workflow: Workflow,
    readonly inputs: Readonly<Record<string, string>>,
    readonly sourceHash: string,
    readonly ledgerId: string,
    readonly allowRepeat: boolean,
    readonly clock: RunClock,
    /** The call that started it, whose connection every prompt of the run is asked for. */
    readonly call: ToolCall,
    readonly resumedFrom?: string,
  ) {
    this.#url = tab.url;
  }

  get signal(): AbortSignal {
    return this.#ended.signal;
  }

  get running(): boolean {
    return this.status === 'running';
  }

  result(step: WorkflowStep): StepResult {
    let result = this.results.get(step.index);
    if (result === undefined) {
      result = { index: step.index, status: 'running', attempts: 0 };
      this.results.set(step.index, result);
    }
    return result;
  }

  /** The first step that is not skipped, as the engine names it. */
  firstStep(): string | null {
    const first = this.workflow.steps.find((step) => this.results.get(step.index)?.status !== 'skipped');
    return first === undefined ? null : stepId(first);
  }

  /** Ends the run (once): the status, why, and the withdrawal of whatever it was waiting on. */
  end(
    status: Exclude<RunStatus, 'running'>,
    reasonCode?: ReasonCode,
    reason?: string,
    at?: WorkflowStep,
  ): void {
    if (!this.running) return;
    this.#url = this.tab.closed === null ? this.tab.url : this.#url;
    this.status = status;
    if (reasonCode !== undefined) this.reasonCode = reasonCode;
    if (reason !== undefined) this.reason = reason;
    if (at !== undefined) this.pausedAt = at;
    delete this.pendingApproval;
    this.#ended.abort();
  }

  report(): RunStatusReport {
    const results = [...this.results.values()].sort((a, b) => a.index - b.index);
    return {
      runId: this.id,
      status: this.status,
      stepCount: this.workflow.steps.length,
      firstStep: this.firstStep(),
      completedSteps: results.filter((result) => result.status === 'success').length,
      skippedSteps: results.filter((result) => result.status === 'skipped').length,
      ...(this.pausedAt !== undefined && this.status === 'paused' ? { pausedAt: stepId(this.pausedAt) } : {}),
      ...(this.reasonCode !== undefined ? { reasonCode: this.reasonCode } : {}),
      ...(this.reason !== undefined ? { reason: this.reason } : {}),
      ...(this.pendingApproval !== undefined ? { pendingApproval: this.pendingApproval } : {}),
      ...(this.resumedFrom !== undefined ? { resumedFrom: this.resumedFrom } : {}),
      stepResults: results.map((result) => ({ ...result })),
      url: this.running && this.tab.closed === null ? this.tab.url : this.#url,
    };
  }
}
