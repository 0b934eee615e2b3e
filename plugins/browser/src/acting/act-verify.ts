/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/*
 * World code (see ../perception/world/world-dom.ts): runs in the page's isolated world,
 * self-contained. The page's own scripts cannot reach it, so a page that replaces
 * `Element.prototype.getBoundingClientRect` or `document.elementFromPoint` in its world changes
 * nothing here: these are the isolated world's own prototypes.
 */
import type { WorldDom } from '../perception/world/world-dom.js';
import type { RefProblem, WorldRefs } from '../perception/world/world-refs.js';

/** Why an element cannot be acted on (the act refusal vocabulary of vmark-notes §3.1). */
export type VerifyReason = 'hidden' | 'disabled' | 'offscreen' | 'obscured' | 'upload';

export type Verified =
  | {
      readonly ok: true;
      /** The point to press, in the CSS pixels of its frame's viewport. */
      readonly x: number;
      readonly y: number;
    }
  | { readonly ok: false; readonly reason: VerifyReason; readonly by?: string; readonly detail: string }
  | { readonly ok: false; readonly problem: RefProblem };

/** A rectangle in the CSS pixels of a frame's viewport. */
export interface ViewBox {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

/** What kind of field `type` writes into, or why it cannot. */
export type FieldKind = 'text' | 'select' | 'editable' | 'not-a-field';

/** What the world saw between `watch` and `settle`. */
export interface Watched {
  readonly mutated: boolean;
  readonly focusMoved: boolean;
  readonly submitted: boolean;
}

export interface WorldAct {
  /**
   * Whether the element of `ref` can be acted on: rendered (computed style, collapsed or
   * transparent ancestors), enabled (`:disabled`, `aria-disabled`, `inert`,
   * `pointer-events: none`), not a file input; then, if `hitTest`, scrolled into view and
   * hit-tested at the point that would be pressed (elementFromPoint, in its own tree).
   */
  verify(generation: number, ref: string, hitTest: boolean, scroll: boolean): Verified;
  /** The part of the element of `ref` that is in view, in its frame's viewport; null if none is. */
  visibleBox(generation: number, ref: string): ViewBox | null | RefProblem;
  /** Scrolls the element of `ref` to the middle of the view: whether any of it is then inside it. */
  scrollTo(generation: number, ref: string): boolean | RefProblem;
  /** Focuses the element of `ref` (for `key` on a target). */
  focus(generation: number, ref: string): boolean | RefProblem;
  /** What `type` would write into. */
  fieldKind(generation: number, ref: string): FieldKind | RefProblem;
  /** Selects all of a text field's or an editable's content, so typed text replaces it. */
  selectAll(generation: number, ref: string): boolean;
  /** Whether an option's label or value is `text`; with `apply`, chooses it as a person would. */
  choose(generation: number, ref: string, text: string, apply: boolean): boolean;
  /** Whether the field now holds `text` (spacing normalized for an editable). */
  holds(generation: number, ref: string, text: string): boolean;
  /** The page's vertical scroll position. */
  scrollY(): number;
  /** Resolves on the end of the next scroll of the page, or after `ms`. */
  scrollEnd(ms: number): Promise<number>;
  /**
   * Starts watching the document for changes, focus moves and form submissions. A focus move
   * onto the target of `ref` itself (a pressed button takes the focus) is not an effect.
   */
  watch(generation: number, ref: string | null): number;
  /**
   * What the watch `id` saw: resolves at the first change, or `ms` after the press reached this
   * document with none. A press into a frame of another process can reach it after the call that
   * made it returned; up to `deliveryMs` is given for it to arrive before the `ms` start.
   */
  settle(id: number, ms: number, deliveryMs: number): Promise<Watched>;
}

export function installAct(dom: WorldDom, refs: WorldRefs): WorldAct {
  /** The element's parent across shadow boundaries (a shadow root's host, a slot's assigned place). */
  const parentOf = (node: Node): Element | null => {
    if (node instanceof Element && node.assignedSlot) return node.assignedSlot;
    const parent = node.parentNode;
    if (parent instanceof ShadowRoot) return parent.host;
    return parent instanceof Element ? parent : null;
  };

  const ancestors = function* (element: Element): Generator<Element> {
    for (let node = parentOf(element); node !== null; node = parentOf(node)) yield node;
  };

  /** Whether `inner` is `outer` or inside it, shadow trees included. */
  const within = (outer: Element, inner: Element) => {
    for (let node: Element | null = inner; node !== null; node = parentOf(node))
      if (node === outer) return true;
    return false;
  };

  /** `div.cmp-overlay`, `button#accept`: a name a person can find the element by. */
  const label = (element: Element) => {
    let name = element.localName;
    if (element.id) name += `#${element.id}`;
    const classes = [...element.classList].slice(0, 2);
    if (classes.length > 0) name += `.${classes.join('.')}`;
    return name;
  };

  /** What covers the target: the nearest positioned element around the one hit, else the one hit. */
  const coverer = (hit: Element, target: Element) => {
    for (let node: Element | null = hit; node !== null && !within(node, target); node = parentOf(node)) {
      const position = getComputedStyle(node).position;
      if (position === 'fixed' || position === 'absolute' || position === 'sticky') return node;
      if (node === document.body || node === document.documentElement) break;
    }
    return hit;
  };

  const disabledWhy = (element: Element) => {
    if (element.matches(':disabled')) return 'it is disabled';
    if (element.getAttribute('aria-disabled') === 'true') return 'it is marked aria-disabled';
    for (const node of [element, ...ancestors(element)])
      if (node instanceof HTMLElement && node.inert) return `it is inert (inside ${label(node)})`;
    if (getComputedStyle(element).pointerEvents === 'none') return 'it has pointer-events: none';
    return null;
  };

  const hiddenWhy = (element: Element) => {
    const box = element.getBoundingClientRect();
    if (
      !element.checkVisibility({
        opacityProperty: true,
        visibilityProperty: true,
        contentVisibilityAuto: true,
      })
    )
      return 'it is not rendered (display, visibility, opacity or a closed ancestor)';
    if (box.width < 1 || box.height < 1) return 'it has no size';
    for (const node of ancestors(element)) {
      const style = getComputedStyle(node);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const clip = node.getBoundingClientRect();
      if (clip.width < 1 || clip.height < 1) return `it is inside a collapsed ${label(node)}`;
      const apart =
        box.right <= clip.left || box.left >= clip.right || box.bottom <= clip.top || box.top >= clip.bottom;
      if (apart && node !== document.documentElement && node !== document.body && style.position !== 'fixed')
        return `it is clipped away by ${label(node)}`;
    }
    return null;
  };

  /** The part of the element's box inside the viewport and every clipping ancestor. */
  const visibleBox = (element: Element) => {
    const box = element.getBoundingClientRect();
    let left = Math.max(box.left, 0);
    let top = Math.max(box.top, 0);
    let right = Math.min(box.right, innerWidth);
    let bottom = Math.min(box.bottom, innerHeight);
    for (const node of ancestors(element)) {
      const style = getComputedStyle(node);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      if (node === document.documentElement || node === document.body) continue;
      const clip = node.getBoundingClientRect();
      left = Math.max(left, clip.left);
      top = Math.max(top, clip.top);
      right = Math.min(right, clip.right);
      bottom = Math.min(bottom, clip.bottom);
    }
    return right - left >= 1 && bottom - top >= 1 ? { left, top, right, bottom } : null;
  };

  /** The element under a point, in the target's own tree (a shadow root's, or the document's). */
  const hitAt = (target: Element, x: number, y: number) => {
    const root = target.getRootNode() as Document | ShadowRoot;
    return root.elementFromPoint(x, y);
  };

  const hits = (target: Element, hit: Element | null) =>
    hit !== null && (within(target, hit) || (hit instanceof HTMLLabelElement && hit.control === target));

  const lookup = (generation: number, ref: string) => refs.element(generation, ref);

  let watchIds = 0;
  const watches = new Map<
    number,
    {
      observer: MutationObserver;
      seen: Watched & { wake?: () => void };
      delivered: () => Promise<void>;
      stop: () => void;
      moved: () => boolean;
    }
  >();

  const deepActive = () => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active;
  };

  return {
    verify(generation, ref, hitTest, scroll) {
      const element = lookup(generation, ref);
      if (typeof element === 'string') return { ok: false, problem: element };
      if (element instanceof HTMLInputElement && element.type === 'file')
        return {
          ok: false,
          reason: 'upload',
          detail: 'file inputs are never automated: ask the person to choose the file',
        };
      const hidden = hiddenWhy(element);
      if (hidden !== null) return { ok: false, reason: 'hidden', detail: hidden };
      const disabled = disabledWhy(element);
      if (disabled !== null) return { ok: false, reason: 'disabled', detail: disabled };
      if (scroll) element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      const box = visibleBox(element);
      if (box === null)
        return { ok: false, reason: 'offscreen', detail: 'it could not be scrolled into view' };
      if (!hitTest) return { ok: true, x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 };
      // The middle first, then nearer each corner: a target half under a banner is still pressable.
      const width = box.right - box.left;
      const height = box.bottom - box.top;
      let first: Element | null = null;
      for (const [fx, fy] of [
        [0.5, 0.5],
        [0.25, 0.25],
        [0.75, 0.25],
        [0.25, 0.75],
        [0.75, 0.75],
      ] as const) {
        const x = box.left + width * fx;
        const y = box.top + height * fy;
        const hit = hitAt(element, x, y);
        if (hits(element, hit)) return { ok: true, x, y };
        first ??= hit;
      }
      if (first === null)
        return { ok: false, reason: 'offscreen', detail: 'nothing is rendered at its place' };
      const by = `covered by ${label(coverer(first, element))}`;
      return { ok: false, reason: 'obscured', by, detail: by };
    },

    visibleBox(generation, ref) {
      const element = lookup(generation, ref);
      return typeof element === 'string' ? element : visibleBox(element);
    },

    scrollTo(generation, ref) {
      const element = lookup(generation, ref);
      if (typeof element === 'string') return element;
      element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      return visibleBox(element) !== null;
    },

    focus(generation, ref) {
      const element = lookup(generation, ref);
      if (typeof element === 'string') return element;
      if (element instanceof HTMLElement || element instanceof SVGElement) element.focus();
      return deepActive() === element;
    },

    fieldKind(generation, ref) {
      const element = lookup(generation, ref);
      if (typeof element === 'string') return element;
      if (element instanceof HTMLSelectElement) return 'select';
      if (element instanceof HTMLTextAreaElement) return element.readOnly ? 'not-a-field' : 'text';
      if (element instanceof HTMLInputElement) {
        const textual = ['text', 'search', 'email', 'password', 'tel', 'url', 'number', ''];
        return textual.includes(element.type) && !element.readOnly ? 'text' : 'not-a-field';
      }
      return element instanceof HTMLElement && element.isContentEditable ? 'editable' : 'not-a-field';
    },

    selectAll(generation, ref) {
      const element = lookup(generation, ref);
      if (typeof element === 'string') return false;
      if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
        element.focus();
        element.select();
        return true;
      }
      const range = document.createRange();
      range.selectNodeContents(element);
      const selection = getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      return true;
    },

    choose(generation, ref, text, apply) {
      const element = lookup(generation, ref);
      if (!(element instanceof HTMLSelectElement)) return false;
      const wanted = dom.normalize(text);
      const options = [...element.options];
      const option =
        options.find((o) => dom.normalize(o.label) === wanted) ?? options.find((o) => o.value === text);
      if (option === undefined || option.disabled) return false;
      if (apply && !option.selected) {
        element.value = option.value;
        option.selected = true;
        // As a person's choice reaches the page (a `<select>` popup is the browser's, not the page's).
        element.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
        element.dispatchEvent(new Event('change', { bubbles: true }));
      }
      return true;
    },

    holds(generation, ref, text) {
      const element = lookup(generation, ref);
      if (typeof element === 'string') return false;
      if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)
        return element.value === text;
      return dom.normalize((element as HTMLElement).innerText ?? '') === dom.normalize(text);
    },

    scrollY: () => scrollY,

    scrollEnd(ms) {
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          removeEventListener('scrollend', done, true);
          resolve(scrollY);
        };
        const timer = setTimeout(done, ms);
        addEventListener('scrollend', done, true);
      });
    },

    watch(generation, ref) {
      const id = ++watchIds;
      const focus = deepActive();
      const target = ref === null ? null : lookup(generation, ref);
      const own = (element: Element | null) =>
        element !== null && typeof target !== 'string' && target !== null && within(target, element);
      const seen: { mutated: boolean; focusMoved: boolean; submitted: boolean; wake?: () => void } = {
        mutated: false,
        focusMoved: false,
        submitted: false,
      };
      const wake = () => seen.wake?.();
      const observer = new MutationObserver(() => {
        seen.mutated = true;
        wake();
      });
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      // Where the focus is at the end is what counts (a focusout passes through the body on the way).
      const moved = () => {
        const now = deepActive();
        return now !== focus && !own(now);
      };
      const onFocus = () => {
        if (moved()) {
          seen.focusMoved = true;
          wake();
        }
      };
      const onSubmit = () => {
        seen.submitted = true;
        wake();
      };
      // The press itself arriving, whole: its release, since a page acts on `click` (trusted events
      // only: the page cannot fake its arrival). A busy frame's process can take longer than the
      // settle window between a press and its release. Named here, not at module level: this
      // function is sent to the page as its source text.
      const PRESS_EVENTS = ['pointerup', 'mouseup', 'click', 'keyup'];
      let arrived = false;
      let onArrival: (() => void) | undefined;
      const onPress = (event: Event) => {
        if (!event.isTrusted) return;
        arrived = true;
        onArrival?.();
      };
      const delivered = () =>
        arrived ? Promise.resolve() : new Promise<void>((resolve) => (onArrival = resolve));
      addEventListener('focusin', onFocus, true);
      addEventListener('submit', onSubmit, true);
      for (const type of PRESS_EVENTS) addEventListener(type, onPress, true);
      const stop = () => {
        observer.disconnect();
        removeEventListener('focusin', onFocus, true);
        removeEventListener('submit', onSubmit, true);
        for (const type of PRESS_EVENTS) removeEventListener(type, onPress, true);
        watches.delete(id);
      };
      watches.set(id, { observer, seen, delivered, stop, moved });
      // A watch nobody settles (the call failed) ends on its own.
      setTimeout(stop, 30_000);
      return id;
    },

    async settle(id, ms, deliveryMs) {
      const watch = watches.get(id);
      if (watch === undefined)
        return Promise.resolve({ mutated: false, focusMoved: false, submitted: false });
      const { seen } = watch;
      const answer = () => {
        watch.stop();
        return { mutated: seen.mutated, focusMoved: watch.moved(), submitted: seen.submitted };
      };
      if (seen.mutated || seen.focusMoved || seen.submitted) return answer();
      if (deliveryMs > 0) {
        let waited: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          watch.delivered(),
          new Promise<void>((resolve) => (waited = setTimeout(resolve, deliveryMs))),
        ]);
        clearTimeout(waited);
        if (seen.mutated || seen.focusMoved || seen.submitted) return answer();
      }
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(answer()), ms);
        seen.wake = () => {
          clearTimeout(timer);
          // One more task, so that what the same handler does next (a submit after a focus) is seen too.
          setTimeout(() => resolve(answer()), 0);
        };
      });
    },
  };
}
