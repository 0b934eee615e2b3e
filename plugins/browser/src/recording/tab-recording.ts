/**
 * One recording of one AI tab (ADR 45), from its armed capture shim to what `stop` hands back.
 * The shim (capture-shim.ts) runs in an isolated world of the recorder's own, registered for
 * every new document of the tab and run at once in the current one, and reports over a CDP
 * binding with a name made for this recording, exposed to that world alone. Navigations come
 * from the host, never the page: the page the recording starts on, then each navigation vmark
 * starts in the tab (`BrowserTab.onHostNavigation`); a page's own (a link, a script, a meta
 * refresh) is not recorded — the click that caused it is, and a replay follows the page.
 * A URL loses its query, fragment and userinfo the moment it arrives (`urlForAgent`): what is
 * typed into a URL is never held; the path goes to the workflow text (its origin alone when the
 * path may carry a credential, recording-to-workflow.ts).
 */
import { randomUUID } from 'node:crypto';
import type { CDPSession } from 'playwright-core';
import { type Disposable, z } from '@vmark/sdk';
import { installDom } from '../perception/world/world-dom.js';
import { installNames } from '../perception/world/world-names.js';
import type { BrowserTab } from '../tabs/browser-tab.js';
import { within } from '../time-bound.js';
import { urlForAgent } from '../url/redact.js';
import type { RecordedEvent } from '../workflow/recording-to-workflow.js';
import { captureShim } from './capture-shim.js';

/** Events kept of one page (document), and of the whole recording (vmark-notes §4.6). */
export const MAX_EVENTS_PER_PAGE = 200;
export const MAX_EVENTS_PER_SESSION = 1000;
/** Nothing the shim sends is longer; a longer payload did not come from it. */
const MAX_PAYLOAD_CHARS = 4096;
/** How long `stop` waits for reports already on their way from a page that may be busy. */
const FLUSH_MS = 1000;
const WORLD_NAME = 'vmark-recorder';

/** What the shim may send; anything else is dropped (it is page-derived text all the same). */
const reported = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('click'),
    name: z.string().max(1000),
    role: z.string().max(100).optional(),
  }),
  z.strictObject({
    kind: z.literal('type'),
    name: z.string().max(1000),
    role: z.string().max(100),
    sensitive: z.boolean(),
  }),
]);

export interface RecordingResult {
  readonly events: readonly RecordedEvent[];
  /** Whether an event was dropped at a bound. */
  readonly capped: boolean;
}

export class TabRecording {
  readonly #events: RecordedEvent[] = [];
  /** Events kept per document (its world's execution context). */
  readonly #perPage = new Map<number, number>();
  #capped = false;
  #stopped = false;
  readonly #binding = `__vmarkRecord_${randomUUID().replaceAll('-', '')}`;
  #scriptId: string | undefined;
  readonly #subscriptions: Disposable[] = [];
  readonly #onBinding = ({
    name,
    payload,
    executionContextId,
  }: {
    name: string;
    payload: string;
    executionContextId: number;
  }) => {
    if (name === this.#binding) this.#report(payload, executionContextId);
  };

  private constructor(
    readonly tab: BrowserTab,
    /** The connection whose recording this is (the one a person allowed it for). */
    readonly connectionId: string,
    readonly site: string,
    private readonly session: CDPSession,
  ) {}

  /** Arms the capture shim in `tab`; the page the tab shows is the recording's first step. */
  static async start(tab: BrowserTab, connectionId: string, site: string): Promise<TabRecording> {
    const session = await tab.world.session();
    const recording = new TabRecording(tab, connectionId, site, session);
    recording.#navigated(tab.page.url());
    session.on('Runtime.bindingCalled', recording.#onBinding);
    recording.#subscriptions.push(tab.onHostNavigation((url) => recording.#navigated(url)));
    try {
      await session.send('Runtime.addBinding', {
        name: recording.#binding,
        executionContextName: WORLD_NAME,
      });
      // One more than a page keeps, so that the host sees the bound reached.
      const source = `((dom) => (${captureShim.toString()})(dom, (${installNames.toString()})(dom), ${JSON.stringify(
        recording.#binding,
      )}, ${MAX_EVENTS_PER_PAGE + 1}))((${installDom.toString()})());`;
      const { identifier } = await session.send('Page.addScriptToEvaluateOnNewDocument', {
        source,
        worldName: WORLD_NAME,
        runImmediately: true,
      });
      recording.#scriptId = identifier;
    } catch (error) {
      await recording.#disarm();
      throw error;
    }
    return recording;
  }

  /** Ends the recording: what it kept, once the reports already sent have arrived. */
  async stop(): Promise<RecordingResult> {
    if (!this.#stopped && this.tab.closed === null) {
      // A round trip on the shim's CDP session: the reports sent before it arrive before its answer.
      await within(
        this.session
          .send('Runtime.evaluate', { expression: '0', returnByValue: true })
          .catch(() => undefined),
        FLUSH_MS,
      );
    }
    await this.#disarm();
    return { events: [...this.#events], capped: this.#capped };
  }

  /** Drops the recording without a result (its tab went away, the host stops). */
  discard(): void {
    void this.#disarm();
  }

  async #disarm(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.session.off('Runtime.bindingCalled', this.#onBinding);
    for (const subscription of this.#subscriptions.splice(0)) subscription.dispose();
    if (this.tab.closed !== null) return;
    // The shim left in the current document calls a binding nobody listens to any more.
    if (this.#scriptId !== undefined)
      await this.session
        .send('Page.removeScriptToEvaluateOnNewDocument', { identifier: this.#scriptId })
        .catch(() => undefined);
    await this.session.send('Runtime.removeBinding', { name: this.#binding }).catch(() => undefined);
  }

  #navigated(raw: string): void {
    const url = urlForAgent(raw);
    // about:blank and the like are no place a replay can be sent to.
    if (/^https?:\/\//.test(url)) this.#keep({ type: 'navigate', url });
  }

  #report(payload: string, context: number): void {
    if (this.#stopped || payload.length > MAX_PAYLOAD_CHARS) return;
    let event: z.infer<typeof reported>;
    try {
      event = reported.parse(JSON.parse(payload));
    } catch {
      return;
    }
    const onPage = this.#perPage.get(context) ?? 0;
    if (onPage >= MAX_EVENTS_PER_PAGE) {
      this.#capped = true;
      return;
    }
    const recorded: RecordedEvent =
      event.kind === 'click'
        ? { type: 'click', name: event.name, ...(event.role === undefined ? {} : { role: event.role }) }
        : { type: 'type', name: event.name, role: event.role, sensitive: event.sensitive };
    if (this.#keep(recorded)) this.#perPage.set(context, onPage + 1);
  }

  #keep(event: RecordedEvent): boolean {
    if (this.#stopped) return false;
    if (this.#events.length >= MAX_EVENTS_PER_SESSION) {
      this.#capped = true;
      return false;
    }
    this.#events.push(event);
    return true;
  }
}
