/**
 * The last snapshot of each document, kept with the page generation and the world's epoch
 * token it was read at (world/world-epoch.ts). A read of a document whose token has not moved
 * reuses it: the same entries, the same refs. Any DOM change, a checkbox flipped, a resize, a
 * navigation (a new generation, or a new document and so a new world) moves the token, and
 * the document is read afresh.
 */
import type { DocumentSnapshot } from './document-snapshot.js';
import type { IsolatedWorld } from './isolated-world.js';
import type { FrameDocument } from './page-frames.js';

interface Kept {
  readonly generation: number;
  readonly epoch: string;
  readonly snapshot: DocumentSnapshot;
}

/** Documents remembered per world at most (a world holds its frame and its same-process iframes). */
const MAX_PER_WORLD = 32;

export class SnapshotCache {
  readonly #worlds = new WeakMap<IsolatedWorld, Map<string, Kept>>();
  #reused = 0;

  /** How many document reads were answered from here (for the tests and the bench). */
  get reused(): number {
    return this.#reused;
  }

  get(document: FrameDocument, generation: number, epoch: string): DocumentSnapshot | null {
    const kept = this.#worlds.get(document.world)?.get(document.frameId);
    if (kept === undefined || kept.generation !== generation || kept.epoch !== epoch) return null;
    this.#reused++;
    return kept.snapshot;
  }

  set(document: FrameDocument, generation: number, epoch: string, snapshot: DocumentSnapshot): void {
    let frames = this.#worlds.get(document.world);
    if (frames === undefined) {
      frames = new Map();
      this.#worlds.set(document.world, frames);
    }
    frames.delete(document.frameId);
    frames.set(document.frameId, { generation, epoch, snapshot });
    if (frames.size > MAX_PER_WORLD) frames.delete(frames.keys().next().value!);
  }

  /** Forgets a document whose snapshot must not be reused (read while it was changing, say). */
  drop(document: FrameDocument): void {
    this.#worlds.get(document.world)?.delete(document.frameId);
  }
}
