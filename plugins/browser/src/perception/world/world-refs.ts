/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/*
 * World code (see world-dom.ts): runs in the page's isolated world, self-contained.
 */

/** Why a ref names no element: never given out in this document, or its element has left the page. */
export type RefProblem = 'unknown' | 'gone';

/**
 * The refs of one document's elements for one page generation: element → ref and ref →
 * element (held weakly, so a page that keeps replacing its DOM does not keep the old nodes
 * alive). The host numbers refs across the tab's documents; the world remembers them, so an
 * element keeps its ref for as long as the generation lasts.
 */
export interface WorldRefs {
  /**
   * The refs of `elements` (null stays null), new ones numbered from `next`.
   * @returns the refs, and the next free number.
   */
  refsFor(
    generation: number,
    elements: readonly (Element | null)[],
    next: number,
  ): { refs: (string | null)[]; next: number };
  /** The ref an element already has in this generation. */
  refOf(generation: number, element: Element): string | undefined;
  /** The element a ref names, if it is still in the page. */
  element(generation: number, ref: string): Element | RefProblem;
}

export function installRefs(): WorldRefs {
  /** Refs remembered per document at most (the oldest go first). */
  const MAX_REFS = 50_000;
  let generation = -1;
  let byElement = new WeakMap<Element, string>();
  let byRef = new Map<string, WeakRef<Element>>();

  /**
   * A new page generation forgets every ref of the one before. A call about an earlier
   * generation (late, after a newer one) changes nothing and gets nothing: false.
   */
  const sync = (current: number) => {
    if (current < generation) return false;
    if (current > generation) {
      generation = current;
      byElement = new WeakMap();
      byRef = new Map();
    }
    return true;
  };

  return {
    refsFor(current, elements, next) {
      if (!sync(current)) return { refs: elements.map(() => null), next };
      const refs: (string | null)[] = [];
      for (const element of elements) {
        if (element === null) {
          refs.push(null);
          continue;
        }
        let ref = byElement.get(element);
        if (ref === undefined) {
          ref = `e${next++}`;
          byElement.set(element, ref);
          byRef.set(ref, new WeakRef(element));
          if (byRef.size > MAX_REFS) byRef.delete(byRef.keys().next().value!);
        }
        refs.push(ref);
      }
      return { refs, next };
    },
    refOf(current, element) {
      return sync(current) ? byElement.get(element) : undefined;
    },
    element(current, ref) {
      const held = sync(current) ? byRef.get(ref) : undefined;
      if (held === undefined) return 'unknown';
      const element = held.deref();
      return element !== undefined && element.isConnected ? element : 'gone';
    },
  };
}
