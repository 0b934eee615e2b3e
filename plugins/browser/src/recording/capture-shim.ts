/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/*
 * World code (see ../perception/world/world-dom.ts): runs in the recorder's own isolated world,
 * serialized with Function.prototype.toString, self-contained.
 */
import type { WorldDom } from '../perception/world/world-dom.js';
import type { WorldNames } from '../perception/world/world-names.js';

/**
 * What the capture shim reports of one thing a person did, and all it can report: there is no
 * field for a value. `sensitive`: a password or one-time-code field (a `confirm:` step).
 */
export type CapturedEvent =
  | { readonly kind: 'click'; readonly name: string; readonly role?: string }
  | { readonly kind: 'type'; readonly name: string; readonly role: string; readonly sensitive: boolean };

/**
 * The recorder's capture shim (ADR 45): listeners on the main frame's window, in an isolated
 * world of the recorder's own — the DOM and its events are shared with the page, its JavaScript
 * is not, so the page can neither see the listeners nor call `report` (a CDP binding exposed to
 * this world alone). Only trusted events count (a person's input, never a page's
 * `dispatchEvent`), at most `perPage` a document. A click reports the control it landed on by
 * role and name; typing reports the field by its label, once per burst — never what was typed,
 * which this code reads only to withhold a name that repeats it (a page echoing the typed text
 * into a button or suggestion: "Search for “…”").
 */
export function captureShim(dom: WorldDom, names: WorldNames, report: string, perPage: number): void {
  if (window.top !== window) return;
  const send = (globalThis as unknown as Record<string, ((payload: string) => void) | undefined>)[report];
  if (typeof send !== 'function') return;
  const NAME_MAX = 200;
  /** Values shorter than this are too common in names to be told apart from them. */
  const ECHO_MIN = 3;
  const NOT_TYPED = new Set([
    'button',
    'submit',
    'reset',
    'image',
    'checkbox',
    'radio',
    'range',
    'color',
    'file',
    'hidden',
  ]);
  const WIDGET_ROLES = new Set([
    'button',
    'link',
    'checkbox',
    'radio',
    'switch',
    'tab',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'treeitem',
    'gridcell',
    'combobox',
    'slider',
    'spinbutton',
  ]);
  const SECRET_AUTOCOMPLETE = new Set([
    'current-password',
    'new-password',
    'one-time-code',
    'cc-number',
    'cc-csc',
  ]);
  const SECRET_WORDS = new Set([
    'password',
    'passwd',
    'pwd',
    'pass',
    'passcode',
    'passphrase',
    'otp',
    'totp',
    'hotp',
    'pin',
    'cvc',
    'cvv',
    'csc',
    'secret',
    'mfa',
    '2fa',
  ]);
  const SECRET_PAIRS = new Set([
    'one time',
    'verification code',
    'security code',
    'auth code',
    'access code',
  ]);

  let sent = 0;
  /** The field the last report was typing into: a burst of typing is one report. */
  let typingIn: Element | null = null;
  /** Fields typed into in this document: a name that repeats their text is withheld. */
  const typed = new Set<Element>();

  /** A text field, a text area, a select or an editable region: typed into, not clicked. */
  const isField = (element: Element) => {
    if (element instanceof HTMLInputElement) return !NOT_TYPED.has(element.type);
    if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
    return element instanceof HTMLElement && element.isContentEditable;
  };

  /** The editing host of an editable region (the element a person thinks of as the field). */
  const fieldOf = (element: Element): Element => {
    let current = element;
    while (
      current.parentElement instanceof HTMLElement &&
      current.parentElement.isContentEditable &&
      !(current instanceof HTMLInputElement || current instanceof HTMLTextAreaElement)
    )
      current = current.parentElement;
    return current;
  };

  const isControl = (element: Element) => {
    const explicit = (element.getAttribute('role') ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    if (WIDGET_ROLES.has(explicit)) return true;
    if (element.matches('a[href], button, input, select, textarea, summary')) return true;
    const tabIndex = element.getAttribute('tabindex');
    return tabIndex !== null && Number(tabIndex) >= 0;
  };

  /** Words of a name or id: `currentPassword`, `otp_code`, `one-time-code` → current password, … */
  const words = (text: string) =>
    text
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word !== '');

  const isSecret = (field: Element, label: string) => {
    if (field instanceof HTMLInputElement && field.type === 'password') return true;
    const autocomplete = words(field.getAttribute('autocomplete') ?? '').join(' ');
    for (const token of SECRET_AUTOCOMPLETE) if (autocomplete.includes(token.replace(/-/g, ' '))) return true;
    const said = [field.getAttribute('name') ?? '', field.id, label].map(words);
    for (const list of said) {
      for (let i = 0; i < list.length; i++) {
        if (SECRET_WORDS.has(list[i]!)) return true;
        if (i > 0 && SECRET_PAIRS.has(`${list[i - 1]} ${list[i]}`)) return true;
      }
    }
    return false;
  };

  /** Whether `name` repeats what was typed into a field of this document (read here, never sent). */
  const echoesTyped = (name: string) => {
    const lower = name.toLowerCase();
    for (const field of typed) {
      const text =
        field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement
          ? field.value
          : (field.textContent ?? '');
      const value = dom.normalize(text).toLowerCase();
      if (value.length >= ECHO_MIN && lower.includes(value)) return true;
    }
    return false;
  };

  const cut = (name: string) => [...name].slice(0, NAME_MAX).join('');

  const emit = (event: CapturedEvent) => {
    if (sent >= perPage) return;
    sent++;
    send(JSON.stringify(event));
  };

  addEventListener(
    'click',
    (event) => {
      if (!event.isTrusted) return;
      const path = event.composedPath().filter((node): node is Element => node instanceof Element);
      if (path.length === 0) return;
      // A label's click is followed by one on its control, which is the one recorded.
      const label = path.find((element): element is HTMLLabelElement => element instanceof HTMLLabelElement);
      if (label?.control && !path.includes(label.control)) return;
      const control = path.find(isControl);
      if (control !== undefined) {
        if (isField(control)) return;
        const name = names.nameOf(control);
        typingIn = null;
        emit(
          echoesTyped(name)
            ? { kind: 'click', name: '' }
            : { kind: 'click', name: cut(name), role: names.roleOf(control) },
        );
        return;
      }
      // No ARIA control: something a page made clickable, recorded as a step done by hand.
      const clickable = path.find((element) => getComputedStyle(element).cursor === 'pointer');
      if (clickable === undefined || (clickable instanceof HTMLElement && clickable.isContentEditable))
        return;
      const { text, cut: long } = dom.textOf(clickable, NAME_MAX);
      if (text === '' || long) return;
      typingIn = null;
      emit({ kind: 'click', name: echoesTyped(text) ? '' : text });
    },
    true,
  );

  const onEdit = (event: Event) => {
    if (!event.isTrusted) return;
    const target = event.composedPath()[0];
    if (!(target instanceof Element)) return;
    const field = fieldOf(target);
    if (!isField(field)) return;
    typed.add(field);
    if (typingIn === field) return;
    typingIn = field;
    const label = names.labelOf(field);
    const role = names.roleOf(field);
    emit({
      kind: 'type',
      name: echoesTyped(label) ? '' : cut(label),
      role: role === 'generic' ? 'textbox' : role,
      sensitive: isSecret(field, label),
    });
  };
  addEventListener('input', onEdit, true);
  addEventListener('change', onEdit, true);
}
