/**
 * The signals gate detection reads from a loaded page (vmark-notes §5.1), collected in the
 * tab's isolated world over the document and every open shadow root: the URL, the title, the
 * head of the visible text, whether a challenge widget is rendered, whether a password field is
 * visible. The page's scripts cannot see or change what runs here; what comes back is still
 * page-controlled text, so it is checked for shape and bounded before anyone reads it.
 */
import type { WorldFunction } from '../perception/isolated-world.js';
import type { GateSignals } from './classify-gate.js';

/** How much of the page's text the classifier reads. */
export const TEXT_HEAD_CHARS = 4000;
/** Elements looked at, at most, so that a 50,000-node page costs a bounded walk. */
const MAX_ELEMENTS = 100_000;

/**
 * Runs in the page's isolated world: plain JavaScript, self-contained (it is sent as source).
 *
 * - `textHead`: `document.body.innerText` (its `textContent` only where `innerText` is absent),
 *   then the rendered text of each open shadow root, which `innerText` leaves out;
 * - `challengeWidget`: a reCAPTCHA / hCaptcha / Turnstile frame, a Turnstile div, Cloudflare's
 *   challenge form or a frame titled "challenge", not hidden and, where there is layout,
 *   rendered larger than 40×40 CSS px, visible, displayed and not transparent;
 * - `passwordField`: an `input[type=password]` that is visible, and displayed and opaque all the
 *   way up its composed parent chain (shadow hosts included), with a box where there is layout.
 */
export const COLLECT_GATE_SIGNALS: WorldFunction = `function collectGateSignals(limits) {
  const WIDGETS = 'iframe[src*="recaptcha"], iframe[src*="hcaptcha"], iframe[src*="turnstile"], ' +
    'div.cf-turnstile, #challenge-form, iframe[title*="challenge" i]';
  const roots = [document];
  let seen = 0;
  for (let i = 0; i < roots.length && seen < limits.maxElements; i++) {
    const walker = document.createTreeWalker(roots[i], NodeFilter.SHOW_ELEMENT);
    for (let node = walker.nextNode(); node !== null && seen < limits.maxElements; node = walker.nextNode()) {
      seen++;
      if (node.shadowRoot) roots.push(node.shadowRoot);
    }
  }
  const styleOf = (el) => (typeof getComputedStyle === 'function' ? getComputedStyle(el) : null);
  const hasLayout = (el) => typeof el.getBoundingClientRect === 'function';
  const shown = (style) =>
    style === null || (style.display !== 'none' && style.visibility !== 'hidden' && style.opacity !== '0');
  const widgetRendered = (el) => {
    if (el.hidden) return false;
    if (!hasLayout(el)) return true;
    const box = el.getBoundingClientRect();
    return box.width > 40 && box.height > 40 && shown(styleOf(el));
  };
  // display and opacity hide a whole subtree; visibility is inherited but a child may undo it,
  // so the field's own computed visibility is the one that counts.
  const visibleUpTheChain = (el) => {
    const own = styleOf(el);
    if (own !== null && own.visibility === 'hidden') return false;
    for (let at = el; at; ) {
      const style = styleOf(at);
      if (style !== null && (style.display === 'none' || style.opacity === '0')) return false;
      if (at.parentElement) at = at.parentElement;
      else {
        const root = at.getRootNode();
        at = root && root.host ? root.host : null;
      }
    }
    if (!hasLayout(el)) return true;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };

  let text = '';
  const body = document.body;
  if (body) text = typeof body.innerText === 'string' ? body.innerText : (body.textContent || '');
  for (const root of roots.slice(1)) {
    if (text.length >= limits.textChars) break;
    for (const child of root.children) {
      if (!shown(styleOf(child))) continue;
      const part = typeof child.innerText === 'string' ? child.innerText : (child.textContent || '');
      if (part.trim() !== '') text += '\\n' + part;
    }
  }

  let challengeWidget = false;
  let passwordField = false;
  for (const root of roots) {
    if (!challengeWidget) challengeWidget = [...root.querySelectorAll(WIDGETS)].some(widgetRendered);
    if (!passwordField) passwordField = [...root.querySelectorAll('input[type="password"]')].some(visibleUpTheChain);
  }
  return {
    url: String(location.href),
    title: String(document.title || ''),
    textHead: text.slice(0, limits.textChars),
    challengeWidget,
    passwordField,
  };
}`;

export const GATE_LIMITS = { textChars: TEXT_HEAD_CHARS, maxElements: MAX_ELEMENTS } as const;

/** The world's answer, if it has the shape the collector gives; anything else is no answer. */
export function gateSignalsOf(value: unknown): GateSignals | null {
  if (typeof value !== 'object' || value === null) return null;
  const { url, title, textHead, challengeWidget, passwordField } = value as Record<string, unknown>;
  if (typeof url !== 'string' || typeof title !== 'string' || typeof textHead !== 'string') return null;
  if (typeof challengeWidget !== 'boolean' || typeof passwordField !== 'boolean') return null;
  return { url, title, textHead: textHead.slice(0, TEXT_HEAD_CHARS), challengeWidget, passwordField };
}
