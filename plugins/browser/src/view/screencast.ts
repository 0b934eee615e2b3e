/**
 * A tab's live picture for the editor (issue 17): CDP `Page.startScreencast` while at least one
 * view watches, stopped when the last stops (a tab nobody shows costs nothing). Each frame is
 * acknowledged as soon as it is handed on, so the browser sends the next one only when the last
 * has been taken: a slow page or socket slows the picture down instead of piling frames up.
 */
import type { CDPSession } from 'playwright-core';
import type { BrowserTab } from '../tabs/browser-tab.js';

/** One picture of the page: a JPEG, and the size of the page's viewport it shows, in CSS pixels. */
export interface Frame {
  readonly jpeg: string;
  readonly width: number;
  readonly height: number;
  /** When the browser drew it (ms since the epoch), for latency measurements. */
  readonly timestamp: number;
}

/** The biggest picture sent: enough for a full pane, small enough to keep frames cheap. */
const MAX_WIDTH = 1600;
const MAX_HEIGHT = 1200;
const QUALITY = 70;

interface FrameEvent {
  readonly data: string;
  readonly sessionId: number;
  readonly metadata: {
    readonly deviceWidth: number;
    readonly deviceHeight: number;
    readonly timestamp?: number;
  };
}

export class Screencast {
  readonly #watchers = new Set<(frame: Frame) => void>();
  #session: CDPSession | undefined;
  #starting: Promise<void> | undefined;
  /** The last frame, for a watcher that joins while the page is still (no new frame would come). */
  #last: Frame | undefined;

  constructor(private readonly tab: BrowserTab) {}

  get watching(): number {
    return this.#watchers.size;
  }

  /** Starts the picture for this watcher (the last frame at once, if there is one); returns the stop. */
  watch(watcher: (frame: Frame) => void): () => void {
    this.#watchers.add(watcher);
    if (this.#last !== undefined) watcher(this.#last);
    if (this.#watchers.size === 1) this.#starting = this.#start();
    return () => {
      if (!this.#watchers.delete(watcher) || this.#watchers.size > 0) return;
      void this.#stop();
    };
  }

  async #start(): Promise<void> {
    const session = await this.tab.world.session();
    if (this.#session === undefined) {
      this.#session = session;
      session.on('Page.screencastFrame', (event: FrameEvent) => this.#frame(session, event));
    }
    await session
      .send('Page.startScreencast', {
        format: 'jpeg',
        quality: QUALITY,
        maxWidth: MAX_WIDTH,
        maxHeight: MAX_HEIGHT,
      })
      .catch(() => undefined);
  }

  async #stop(): Promise<void> {
    await this.#starting;
    // Someone started watching again meanwhile: the picture goes on.
    if (this.#watchers.size > 0) return;
    await this.#session?.send('Page.stopScreencast').catch(() => undefined);
  }

  #frame(session: CDPSession, event: FrameEvent): void {
    // Taken: the browser may draw the next one (a closed page answers nothing, and needs nothing).
    void session.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
    if (this.#watchers.size === 0) return;
    const frame: Frame = {
      jpeg: event.data,
      width: event.metadata.deviceWidth,
      height: event.metadata.deviceHeight,
      timestamp: Math.round((event.metadata.timestamp ?? Date.now() / 1000) * 1000),
    };
    this.#last = frame;
    for (const watcher of [...this.#watchers]) watcher(frame);
  }
}
