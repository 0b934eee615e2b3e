/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/*
 * World code: this file's functions run inside a page's isolated world (see world-library.ts),
 * serialized with Function.prototype.toString. Each installer must be self-contained — no
 * imports or module-level helpers at run time, only what it declares inside itself.
 */

/** DOM helpers every world module shares. */
export interface WorldDom {
  /** Whitespace collapsed to single spaces, trimmed. */
  normalize(text: string): string;
  /** Laid out with a non-empty box and not `visibility: hidden` (what "rendered" means for coverage). */
  rendered(element: Element): boolean;
  /** Every open shadow root under `root`, nested ones included, at most `budget`. */
  openShadowRoots(root: Document | ShadowRoot, budget: number): ShadowRoot[];
  /** `node`, or the host of the shadow tree it is in, up to the document's own tree. */
  lift(node: Node): Node;
  /** Whether `a` comes before `b` in the document (shadow trees placed at their hosts). */
  before(a: Node, b: Node): boolean;
  /** The element's text as a person would read it, normalized and cut at `max` (cut: whether it was). */
  textOf(element: Element, max: number): { text: string; cut: boolean };
}

export function installDom(): WorldDom {
  const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

  const rendered = (element: Element) => {
    if (!element.isConnected) return false;
    const box = element.getBoundingClientRect();
    if (box.width <= 0 || box.height <= 0) return false;
    return element.checkVisibility({ visibilityProperty: true });
  };

  const openShadowRoots = (root: Document | ShadowRoot, budget: number) => {
    const found: ShadowRoot[] = [];
    const pending: (Document | ShadowRoot)[] = [root];
    while (pending.length > 0 && found.length < budget) {
      const next = pending.pop()!;
      // A live collection, read by index: no array of every element is ever made.
      const all = next.querySelectorAll('*');
      for (let i = 0; i < all.length && found.length < budget; i++) {
        const shadow = all[i]!.shadowRoot;
        if (shadow !== null) {
          found.push(shadow);
          pending.push(shadow);
        }
      }
    }
    return found;
  };

  const lift = (node: Node) => {
    let current = node;
    for (;;) {
      const root = current.getRootNode();
      if (!(root instanceof ShadowRoot)) return current;
      current = root.host;
    }
  };

  const before = (a: Node, b: Node) => {
    let x = a;
    let y = b;
    if (x.getRootNode() !== y.getRootNode()) {
      x = lift(x);
      y = lift(y);
    }
    if (x === y) return false;
    return (x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  };

  const textOf = (element: Element, max: number) => {
    const raw = element instanceof HTMLElement && rendered(element) ? element.innerText : element.textContent;
    const text = normalize(raw ?? '');
    return text.length > max ? { text: text.slice(0, max), cut: true } : { text, cut: false };
  };

  return { normalize, rendered, openShadowRoots, lift, before, textOf };
}
