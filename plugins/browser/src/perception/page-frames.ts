/**
 * The documents of a page that perception reads: the main frame's, and those of its iframes.
 * A same-process iframe (same site) is another frame of the page's own CDP target; a
 * cross-site iframe runs in a process of its own (an out-of-process iframe) with its own CDP
 * target, reached through a session Playwright opens for its frame. Each document is read in
 * its own isolated world.
 */
import type { CDPSession, Frame, Page } from 'playwright-core';
import { IsolatedWorld } from './isolated-world.js';

/** One document: the world (hence CDP session) that reaches it, and its frame there. */
export interface FrameDocument {
  readonly world: IsolatedWorld;
  readonly frameId: string;
}

interface OutOfProcess {
  readonly frameId: string;
  readonly session: CDPSession;
  readonly world: IsolatedWorld;
}

export class PageFrames {
  /** Each Playwright frame probed for a session of its own: null for a same-process frame. */
  readonly #probes = new Map<Frame, Promise<OutOfProcess | null>>();

  constructor(
    private readonly page: Page,
    readonly mainWorld: IsolatedWorld,
  ) {
    // A frame that navigates may move to another process; one that goes is gone.
    const forget = (frame: Frame) => {
      const probe = this.#probes.get(frame);
      this.#probes.delete(frame);
      void probe?.then((found) => found?.session.detach()).catch(() => undefined);
    };
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) forget(frame);
    });
    page.on('framedetached', forget);
  }

  async main(): Promise<FrameDocument> {
    return { world: this.mainWorld, frameId: await this.mainWorld.mainFrameId() };
  }

  /**
   * The document inside the `<iframe>` (or `<frame>`) element `ownerBackendNodeId` of `parent`,
   * or null when there is none to enter (not loaded, or its target could not be reached).
   */
  async child(parent: FrameDocument, ownerBackendNodeId: number): Promise<FrameDocument | null> {
    const session = await parent.world.session();
    const { node } = await session.send('DOM.describeNode', { backendNodeId: ownerBackendNodeId });
    if (node.frameId === undefined) return null;
    // The parent's process holds the child's document: same target, another frame.
    if (node.contentDocument !== undefined) return { world: parent.world, frameId: node.frameId };
    const found = await this.#outOfProcess(node.frameId);
    return found === null ? null : { world: found.world, frameId: found.frameId };
  }

  async #outOfProcess(frameId: string): Promise<OutOfProcess | null> {
    const frames = this.page.frames().filter((frame) => frame !== this.page.mainFrame());
    const probes = frames.map((frame) => {
      let probe = this.#probes.get(frame);
      if (probe === undefined) {
        probe = this.#probe(frame);
        this.#probes.set(frame, probe);
      }
      return probe;
    });
    for (const probe of probes) {
      const found = await probe;
      if (found?.frameId === frameId) return found;
    }
    return null;
  }

  async #probe(frame: Frame): Promise<OutOfProcess | null> {
    let session: CDPSession;
    try {
      session = await this.page.context().newCDPSession(frame);
    } catch {
      return null; // Part of its parent's target, not a target of its own.
    }
    const world = new IsolatedWorld(this.page, () => Promise.resolve(session));
    try {
      return { frameId: await world.mainFrameId(), session, world };
    } catch {
      await session.detach().catch(() => undefined);
      return null;
    }
  }
}
