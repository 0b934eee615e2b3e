/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/*
 * World code (see world-dom.ts): runs in the page's isolated world, self-contained.
 */
import type { WorldDom } from './world-dom.js';
import type { RefProblem, WorldRefs } from './world-refs.js';

/** What `wait_for` asks of the world between its checks. */
export interface WorldWait {
  /** The ref of the innermost rendered element whose text contains `needle` (case and spacing ignored). */
  findText(generation: number, next: number, needle: string): { ref: string; next: number } | null;
  /** Whether the element a ref names is in the page and rendered. */
  refState(generation: number, ref: string): 'rendered' | 'hidden' | RefProblem;
  /** Resolves true on the document's next change, false after `ms` without one. */
  nextChange(ms: number): Promise<boolean>;
}

export function installWait(dom: WorldDom, refs: WorldRefs): WorldWait {
  const matches = (text: string | null | undefined, needle: string) =>
    text != null && dom.normalize(text).toLowerCase().includes(needle);

  /** A text node holding the whole needle, in the document or an open shadow root. */
  const inOneTextNode = (needle: string) => {
    for (const root of [document, ...dom.openShadowRoots(document, 1000)]) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (parent === null || (node as Text).data.length < needle.length) continue;
        if (matches((node as Text).data, needle) && dom.rendered(parent)) return parent;
      }
    }
    return null;
  };

  /** The needle spread over several nodes ("Hello <b>world</b>"): the innermost element holding it. */
  const acrossNodes = (needle: string) => {
    let current: Element | null = document.body;
    if (current === null || !matches((current as HTMLElement).innerText, needle)) return null;
    for (;;) {
      const child: Element | undefined = [...current.children].find(
        (c) => c instanceof HTMLElement && dom.rendered(c) && matches(c.innerText, needle),
      );
      if (child === undefined) return current;
      current = child;
    }
  };

  return {
    findText(generation, next, raw) {
      const needle = dom.normalize(raw).toLowerCase();
      const element = inOneTextNode(needle) ?? acrossNodes(needle);
      if (element === null) return null;
      const assigned = refs.refsFor(generation, [element], next);
      return { ref: assigned.refs[0]!, next: assigned.next };
    },
    refState(generation, ref) {
      const element = refs.element(generation, ref);
      if (typeof element === 'string') return element;
      return dom.rendered(element) ? 'rendered' : 'hidden';
    },
    nextChange(ms) {
      return new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          observer.disconnect();
          clearTimeout(timer);
          resolve(true);
        });
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        const timer = setTimeout(() => {
          observer.disconnect();
          resolve(false);
        }, ms);
      });
    },
  };
}
