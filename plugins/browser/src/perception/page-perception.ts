/**
 * Everything perception keeps for one tab: the documents of its page, the refs it gave out,
 * its console capture — and, for the actions that act on a ref (part 2's `act`, `style`), the
 * way from a ref back to its element in its isolated world.
 */
import type { Page } from 'playwright-core';
import { TokenError } from '@vmark/sdk';
import type { PlanOptions } from './ax-plan.js';
import { ConsoleCapture } from './console/console-capture.js';
import type { IsolatedWorld, WorldFunction } from './isolated-world.js';
import { type FrameDocument, PageFrames } from './page-frames.js';
import { RefTable } from './ref-table.js';
import { readSnapshot, type ReadResult } from './snapshot.js';
import type { RefProblem } from './world/world-refs.js';

/** An element a ref names, as CDP reaches it: a remote object in its document's world. */
export interface ElementHandle {
  readonly document: FrameDocument;
  readonly objectId: string;
}

export class PagePerception {
  readonly frames: PageFrames;
  readonly refs = new RefTable();
  readonly console: ConsoleCapture;

  constructor(
    page: Page,
    readonly world: IsolatedWorld,
    private readonly generation: () => number,
  ) {
    this.frames = new PageFrames(page, world);
    this.console = new ConsoleCapture(world);
  }

  read(url: string, plan?: PlanOptions): Promise<ReadResult> {
    return readSnapshot({ frames: this.frames, refs: this.refs, generation: this.generation(), url, plan });
  }

  /**
   * Runs `fn(element, arg)` (sync or async) in the isolated world of the element `ref` names.
   * @throws TokenError `STALE_REF` (an earlier page generation, or the element left the page)
   *   or `UNKNOWN_REF` (never given out).
   */
  async withElement<T>(ref: string, fn: WorldFunction, arg?: unknown): Promise<T> {
    const generation = this.generation();
    const document = this.refs.locate(generation, ref);
    const declaration =
      'async function (ref, generation, arg) {' +
      ' const found = globalThis.__vmark.refs.element(generation, ref);' +
      " if (typeof found === 'string') return { problem: found };" +
      ` return { value: await (${fn})(found, arg) }; }`;
    const result = await document.world.call(document.frameId, declaration, [
      { value: ref },
      { value: generation },
      ...(arg === undefined ? [] : [{ value: arg }]),
    ]);
    const answer = result.value as { problem: RefProblem } | { value: T };
    if ('problem' in answer) throw refGone(ref, answer.problem);
    return answer.value;
  }

  /** The element `ref` names as a remote object of `objectGroup` (release the group when done). */
  async elementHandle(ref: string, objectGroup: string): Promise<ElementHandle> {
    const generation = this.generation();
    const document = this.refs.locate(generation, ref);
    const declaration =
      'function (ref, generation) {' +
      // A string is the problem ("gone", "unknown"); an element comes back as a remote object.
      ' const found = globalThis.__vmark.refs.element(generation, ref);' +
      ' return found; }';
    const result = await document.world.call(
      document.frameId,
      declaration,
      [{ value: ref }, { value: generation }],
      { reference: true, objectGroup },
    );
    if (result.type === 'string' || result.objectId === undefined) {
      throw refGone(ref, result.value === 'gone' ? 'gone' : 'unknown');
    }
    return { document, objectId: result.objectId };
  }
}

/** `STALE_REF` for a ref whose element the world no longer has. */
export function refGone(ref: string, problem: RefProblem): TokenError {
  return new TokenError(
    'STALE_REF',
    problem === 'gone'
      ? `the element ref ${ref} named has left the page; read the page again`
      : `ref ${ref} belonged to a document that has since been replaced (its frame navigated); read the page again`,
    { ref },
  );
}
