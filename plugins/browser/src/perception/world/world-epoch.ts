/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/*
 * World code (see world-dom.ts): runs in the page's isolated world, self-contained.
 */
import type { WorldDom } from './world-dom.js';

/**
 * A token that changes whenever what `read` sees of the document may have changed, so the
 * host can reuse its last snapshot of an unchanged document. It changes on every DOM
 * mutation (in the document and in every open shadow root), on the events after which layout
 * or state can differ with no mutation (input, focus, hover, popovers, resize, scroll,
 * transitions, loads), and with what changes silently: the checked state of checkboxes and
 * radios (a script may set `.checked`), the style sheets' rule counts (CSSOM `insertRule`),
 * the number of open shadow roots (a custom element upgraded late). The token starts with a
 * number drawn when the library was installed: another document (or a world made again)
 * never repeats it. Not seen: inside closed shadow roots (the host does not reuse a document
 * whose read reached into one), and a CSSOM rule edited in place.
 */
export interface WorldEpoch {
  /** The current token; the first call starts watching the document. */
  token(): string;
}

export function installEpoch(dom: WorldDom): WorldEpoch {
  const instance = Math.floor(Math.random() * 2 ** 48).toString(36);
  /** Events that may change the page's layout or state with no DOM mutation. */
  const EVENTS = [
    'input',
    'change',
    'reset',
    'toggle',
    'focusin',
    'focusout',
    'pointerover',
    'pointerout',
    'scroll',
    'load',
    'transitionend',
    'transitioncancel',
    'animationend',
    'animationcancel',
    'fullscreenchange',
  ];
  let count = 0;
  let observer: MutationObserver | null = null;
  const watched = new WeakSet<Node>();
  const bump = () => {
    count++;
  };

  const observe = (root: Node) => {
    if (observer === null || watched.has(root)) return;
    watched.add(root);
    observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  };

  const start = () => {
    if (observer !== null) return;
    observer = new MutationObserver(bump);
    observe(document);
    // Capture on the document: every element's event passes here first, bubbling or not.
    for (const type of EVENTS) document.addEventListener(type, bump, { capture: true, passive: true });
    window.addEventListener('resize', bump, { passive: true });
  };

  const mix = (hash: number, value: number) => (Math.imul(hash, 31) + value + 1) | 0;

  const sheets = (root: Document | ShadowRoot, hash: number) => {
    for (const sheet of [...root.styleSheets, ...root.adoptedStyleSheets]) {
      let rules = -1;
      try {
        rules = sheet.cssRules.length;
      } catch {
        // Another origin's sheet cannot be read; its rules cannot change from script either.
      }
      hash = mix(hash, rules * 2 + (sheet.disabled ? 1 : 0));
    }
    return hash;
  };

  /** What can change with no mutation and no event, as a short digest over `roots`. */
  const silent = (roots: readonly (Document | ShadowRoot)[]) => {
    let hash = roots.length;
    for (const root of roots) {
      hash = sheets(root, hash);
      const inputs = root.querySelectorAll('input[type=checkbox], input[type=radio]');
      for (let i = 0; i < inputs.length; i++) {
        const input = inputs[i] as HTMLInputElement;
        hash = mix(hash, input.indeterminate ? 2 : input.checked ? 1 : 0);
      }
    }
    return (hash >>> 0).toString(36);
  };

  return {
    token() {
      start();
      const roots = [document, ...dom.openShadowRoots(document, 1000)];
      for (const root of roots) observe(root);
      // Records not yet delivered (the page changed the DOM in this very task) count too.
      if (observer!.takeRecords().length > 0) count++;
      return `${instance}:${count}:${silent(roots)}`;
    },
  };
}
