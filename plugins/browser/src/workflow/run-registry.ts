import { type Approvals, type Disposable, TokenError, type ToolCall } from '@vmark/sdk';
import type { BrowserTab } from '../tabs/browser-tab.js';
import { noteApproval } from '../tabs/note-activity.js';
import { noteRunEnded, noteRunStarted, stepWords } from './run-activity.js';
import { runCall } from './run-approvals.js';
import { RunClock, type Now, RUN_BUDGET_MS } from './run-clock.js';
import { executeRun, type ExecutorServices } from './run-executor.js';
import { ledgerId, sourceHash } from './run-key.js';
import { validateRun } from './run-validate.js';
import type { StepServices } from './step-attempt.js';
import { stepEffect } from './step-effect.js';
import { type ReasonCode, type RunStatusReport, WorkflowRun } from './workflow-run.js';
import { WriteLedger } from './write-ledger.js';

/*
 * The workflow runs of this host (vmark-notes §4.4): `workflow_run` starts one and answers at
 * once, `workflow_status` reports it, `workflow_cancel` stops it. One run at a time may run on a
 * tab; a run that ends in any way — completed, paused, failed, cancelled, superseded — gives the
 * tab back and takes back its prompts. Runs are kept in memory while the host runs.
 */

export interface RunArgs {
  readonly source: string;
  readonly inputs?: Readonly<Record<string, string>>;
  readonly allowRepeat?: boolean;
  readonly resumeRunId?: string;
}

export interface RunStarted {
  readonly runId: string;
  readonly steps: number;
  readonly firstStep: string | null;
  readonly status: 'running';
}

export interface RunRegistryOptions extends StepServices {
  /** Running time a run may use (120 s); tests give less. */
  readonly budgetMs?: number;
  readonly now?: Now;
  readonly approvalPollMs?: number;
  readonly retryDelayMs?: number;
}

/** Runs remembered for `workflow_status` after they ended. */
const MAX_RUNS = 256;

export class RunRegistry implements Disposable {
  readonly #runs = new Map<string, WorkflowRun>();
  /** tab id → its running run. */
  readonly #running = new Map<string, WorkflowRun>();
  readonly #ledger = new WriteLedger();
  /** Tabs whose closing is watched: it ends their run and drops their ledger. */
  readonly #watched = new Set<string>();
  readonly #executor: ExecutorServices;
  readonly #approvals: Approvals;
  readonly #budgetMs: number;
  readonly #now: Now;
  #counter = 0;

  constructor(options: RunRegistryOptions) {
    this.#approvals = options.approvals;
    this.#budgetMs = options.budgetMs ?? RUN_BUDGET_MS;
    this.#now = options.now ?? Date.now;
    this.#executor = {
      navigator: options.navigator,
      reader: options.reader,
      approvals: options.approvals,
      ledger: this.#ledger,
      approvalPollMs: options.approvalPollMs ?? 500,
      retryDelayMs: options.retryDelayMs ?? 250,
    };
  }

  /**
   * Starts a run on the tab `tabOf` resolves, and answers at once.
   * @throws ArgumentError for a bad source or inputs; TokenError `WORKFLOW_RUNNING`, and for a
   *   resume `RUN_NOT_FOUND`, `RESUME_NOT_PAUSED`, `RESUME_TAB_MISMATCH`, `RESUME_SOURCE_MISMATCH`.
   *   Nothing changes when it throws.
   */
  start(tabOf: () => BrowserTab, args: RunArgs, call: ToolCall): RunStarted {
    // The arguments first: a bad one changes nothing, not even which tab is focused.
    const { workflow, inputs } = validateRun(args.source, args.inputs);
    const tab = tabOf();
    if (this.#running.has(tab.id)) {
      throw new TokenError('WORKFLOW_RUNNING', 'a workflow is already running on this tab', {
        tabId: tab.id,
        runId: this.#running.get(tab.id)!.id,
      });
    }
    const hash = sourceHash(workflow);
    const resumed = args.resumeRunId === undefined ? undefined : this.#resumable(args.resumeRunId, tab, hash);
    const run = new WorkflowRun(
      `wfrun-${tab.id}-${++this.#counter}`,
      tab,
      workflow,
      inputs,
      hash,
      ledgerId(workflow, inputs),
      args.allowRepeat === true,
      new RunClock(this.#budgetMs, this.#now),
      call,
      resumed?.id,
    );
    for (const step of workflow.steps) {
      const before = resumed?.results.get(step.index);
      const inherited = before?.status === 'success' || before?.status === 'skipped';
      // The step a person was asked to do counts as done by them; a deadline or a lost tab left it undone.
      const byHand =
        resumed?.pausedAt?.index === step.index &&
        (resumed.reasonCode === 'needs-human' || resumed.reasonCode === 'retries-exhausted');
      const ledgered =
        !run.allowRepeat && stepEffect(step.kind).write && this.#ledger.has(tab.id, run.ledgerId, step.index);
      if (inherited || byHand || ledgered) {
        run.results.set(step.index, {
          index: step.index,
          status: 'skipped',
          attempts: 0,
          reason: byHand
            ? 'done by the person'
            : inherited
              ? `done in ${resumed!.id}`
              : 'already done in this session',
        });
      }
    }
    if (resumed !== undefined) {
      resumed.status = 'superseded';
      resumed.reasonCode = 'superseded';
      resumed.reason = `resumed by ${run.id}`;
    }
    this.#remember(run);
    this.#watch(tab);
    this.#running.set(tab.id, run);
    run.signal.addEventListener('abort', () => this.#released(run), { once: true });
    noteRunStarted(run);
    void executeRun(run, this.#executor);
    return { runId: run.id, steps: workflow.steps.length, firstStep: run.firstStep(), status: 'running' };
  }

  /** @throws TokenError `RUN_NOT_FOUND`. */
  status(runId: string, tabId?: string): RunStatusReport {
    return this.#find(runId, tabId).report();
  }

  /** Stops a run; never asks anyone. @throws TokenError `RUN_NOT_FOUND`. */
  cancel(
    runId: string,
    tabId?: string,
  ): { runId: string; status: string; result: 'cancelled' | 'already-terminal' } {
    const run = this.#find(runId, tabId);
    if (run.status !== 'running' && run.status !== 'paused') {
      return { runId, status: run.status, result: 'already-terminal' };
    }
    if (run.running) run.end('cancelled', 'cancelled', 'cancelled by the client');
    else {
      run.status = 'cancelled';
      run.reasonCode = 'cancelled';
      run.reason = 'cancelled by the client';
      noteRunEnded(run);
    }
    return { runId, status: 'cancelled', result: 'cancelled' };
  }

  /**
   * Pauses the run on a tab a person took over (`lease-lost`): it stops before its next attempt,
   * its prompts are taken back. Answers the runs it paused.
   */
  pauseRunsOnTab(tabId: string, reasonCode: Extract<ReasonCode, 'lease-lost'>): string[] {
    const run = this.#running.get(tabId);
    if (run === undefined) return [];
    run.end('paused', reasonCode, 'the human took over this tab', run.current);
    return [run.id];
  }

  /** Ends every run (the plugin is going away). */
  dispose(): void {
    for (const run of [...this.#running.values()])
      run.end('failed', 'internal', 'the browser plugin stopped');
  }

  #watch(tab: BrowserTab): void {
    if (this.#watched.has(tab.id)) return;
    this.#watched.add(tab.id);
    tab.onClosed((reason) => {
      this.#running.get(tab.id)?.end('failed', 'internal', `the tab was closed (${reason})`);
      // Its id is never given out again: nothing could ever skip by its ledger.
      this.#ledger.forgetTab(tab.id);
      this.#watched.delete(tab.id);
    });
  }

  #released(run: WorkflowRun): void {
    if (this.#running.get(run.tab.id) === run) this.#running.delete(run.tab.id);
    const call = runCall(run);
    const step = run.pausedAt ?? run.current;
    for (const requestId of run.prompts) {
      if (this.#approvals.withdraw?.(requestId, call) === true && step !== undefined)
        noteApproval(run.tab, stepWords(step), requestId, 'withdrawn: the run ended');
    }
    run.prompts.clear();
    noteRunEnded(run);
  }

  #resumable(runId: string, tab: BrowserTab, hash: string): WorkflowRun {
    const old = this.#runs.get(runId);
    if (old === undefined) throw notFound(runId);
    if (old.status !== 'paused') {
      throw new TokenError(
        'RESUME_NOT_PAUSED',
        `run ${runId} is ${old.status}; only a paused run can be resumed`,
        {
          runId,
          status: old.status,
        },
      );
    }
    if (old.tab.id !== tab.id) {
      throw new TokenError('RESUME_TAB_MISMATCH', `run ${runId} ran on ${old.tab.id}, not on ${tab.id}`, {
        runId,
        tabId: old.tab.id,
      });
    }
    if (old.sourceHash !== hash) {
      throw new TokenError(
        'RESUME_SOURCE_MISMATCH',
        `run ${runId} ran another workflow; resume it with the same source (its inputs may differ)`,
        { runId },
      );
    }
    return old;
  }

  #find(runId: string, tabId: string | undefined): WorkflowRun {
    const run = this.#runs.get(runId);
    if (run === undefined || (tabId !== undefined && run.tab.id !== tabId)) throw notFound(runId);
    return run;
  }

  #remember(run: WorkflowRun): void {
    this.#runs.set(run.id, run);
    if (this.#runs.size <= MAX_RUNS) return;
    for (const [id, old] of this.#runs) {
      if (old.running) continue;
      this.#runs.delete(id);
      break;
    }
  }
}

function notFound(runId: string): TokenError {
  return new TokenError('RUN_NOT_FOUND', `no workflow run ${runId}`, { runId });
}
