/**
 * `browser workflow_record` (vmark-notes §4.6, ADR 45): at most one recording a tab. `start`
 * asks a person every time (operation `record`, never a standing grant — the broker refuses
 * one too), bound to the tab's page as any page approval is, and arms the capture shim;
 * `stop` hands back the workflow text (recording-to-workflow.ts, print-workflow.ts) — what
 * was touched, never what was typed. A recording belongs to the connection a person allowed
 * it for: another connection has none to stop. It ends with its tab.
 */
import { type Approvals, type Disposable, Refusal, type ToolCall, TokenError } from '@vmark/sdk';
import { approvePageChange } from '../acting/page-approval.js';
import type { BrowserTab } from '../tabs/browser-tab.js';
import { printWorkflow } from '../workflow/print-workflow.js';
import { recordingSite, recordingToWorkflow } from '../workflow/recording-to-workflow.js';
import { TabRecording } from './tab-recording.js';

export interface RecordingStarted {
  readonly status: 'recording';
  readonly tabId: string;
  readonly site: string;
}

export interface RecordingStopped {
  readonly source: string;
  readonly inputs: readonly string[];
  readonly eventCount: number;
  readonly capped: boolean;
}

export class WorkflowRecorder implements Disposable {
  /** tab id → its recording; a tab being armed holds `'starting'`. */
  readonly #active = new Map<string, TabRecording | 'starting'>();
  readonly #ends = new Map<string, Disposable>();

  constructor(private readonly approvals: Approvals) {}

  async start(tab: BrowserTab, site: string | undefined, call: ToolCall): Promise<RecordingStarted> {
    const recorded = recordingSite(site);
    this.#assertIdle(tab);
    await approvePageChange(this.approvals, call, {
      tab,
      operation: 'record',
      noted: 'record what is done in this tab',
      what:
        `record what is done in this tab as a browser workflow for site "${recorded}" — which controls are ` +
        'clicked and which fields are typed in, never what is typed',
      retry: { action: 'workflow_record', tabId: tab.id, args: { recordOp: 'start' } },
    });
    // Asking takes time: another start may have begun meanwhile.
    this.#assertIdle(tab);
    this.#active.set(tab.id, 'starting');
    let recording: TabRecording;
    try {
      recording = await TabRecording.start(tab, call.caller.connectionId, recorded);
    } catch (error) {
      this.#active.delete(tab.id);
      throw error;
    }
    this.#active.set(tab.id, recording);
    this.#ends.set(
      tab.id,
      tab.onClosed(() => this.#end(tab.id)?.discard()),
    );
    return { status: 'recording', tabId: tab.id, site: recorded };
  }

  async stop(tab: BrowserTab, call: ToolCall): Promise<RecordingStopped> {
    const recording = this.#active.get(tab.id);
    if (!(recording instanceof TabRecording) || recording.connectionId !== call.caller.connectionId)
      throw new Refusal('no active recording for this tab', { recording: false, tabId: tab.id });
    this.#end(tab.id);
    const { events, capped } = await recording.stop();
    const workflow = recordingToWorkflow({ site: recording.site, events });
    return { source: printWorkflow(workflow), inputs: workflow.inputs, eventCount: events.length, capped };
  }

  dispose(): void {
    for (const tabId of [...this.#active.keys()]) {
      const recording = this.#end(tabId);
      recording?.discard();
    }
  }

  #assertIdle(tab: BrowserTab): void {
    if (!this.#active.has(tab.id)) return;
    throw new TokenError(
      'recording-already-active',
      `tab ${tab.id} is being recorded already; stop that recording first ` +
        `(browser {action:"workflow_record", recordOp:"stop", tabId:"${tab.id}"})`,
      { tabId: tab.id },
    );
  }

  /** Forgets the tab's recording and returns it (undefined while it is still being armed). */
  #end(tabId: string): TabRecording | undefined {
    const recording = this.#active.get(tabId);
    this.#active.delete(tabId);
    this.#ends.get(tabId)?.dispose();
    this.#ends.delete(tabId);
    return recording instanceof TabRecording ? recording : undefined;
  }
}
