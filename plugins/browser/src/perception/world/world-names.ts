/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/*
 * World code (see world-dom.ts): runs in a page's isolated world, self-contained.
 */
import type { WorldDom } from './world-dom.js';

/**
 * The role and accessible name of an element as the world can work them out (the accessibility
 * tree, read over CDP, is the host's source; these stand in where it cannot be asked): the
 * snapshot's supplement entries and the recorder's capture shim both call an element this.
 */
export interface WorldNames {
  /** The explicit role's first token, else the implicit role of the element's tag. */
  readonly roleOf: (element: Element) => string;
  /** The accessible name: labels first, then the element's own text, then its title. */
  readonly nameOf: (element: Element) => string;
  /**
   * A field's name from what labels it — aria-label, aria-labelledby, `<label>`, placeholder,
   * title — and never from its content, which for a text area or an editable region is what a
   * person typed.
   */
  readonly labelOf: (element: Element) => string;
}

export function installNames(dom: WorldDom): WorldNames {
  const NAME_CHARS = 200;
  const INPUT_ROLES: Record<string, string> = {
    button: 'button',
    submit: 'button',
    reset: 'button',
    image: 'button',
    file: 'button',
    checkbox: 'checkbox',
    radio: 'radio',
    range: 'slider',
    number: 'spinbutton',
    search: 'searchbox',
  };

  const roleOf = (element: Element) => {
    const explicit = (element.getAttribute('role') ?? '').trim().split(/\s+/)[0];
    if (explicit) return explicit.toLowerCase();
    switch (element.localName) {
      case 'a':
        return 'link';
      case 'button':
        return 'button';
      case 'select':
        return (element as HTMLSelectElement).multiple ? 'listbox' : 'combobox';
      case 'textarea':
        return 'textbox';
      case 'input':
        return INPUT_ROLES[(element as HTMLInputElement).type] ?? 'textbox';
      default:
        return 'generic';
    }
  };

  /** aria-label, then aria-labelledby: what names any element before its own content. */
  const ariaName = (element: Element) => {
    const label = element.getAttribute('aria-label');
    if (label !== null && dom.normalize(label) !== '') return dom.normalize(label);
    const labelledBy = element.getAttribute('aria-labelledby');
    if (labelledBy !== null) {
      const root = element.getRootNode() as Document | ShadowRoot;
      const parts = labelledBy
        .split(/\s+/)
        .map((id) => root.getElementById?.(id)?.textContent ?? '')
        .filter((text) => text.trim() !== '');
      if (parts.length > 0) return dom.normalize(parts.join(' '));
    }
    return '';
  };

  const labelsOf = (element: Element) => {
    const labels = (element as HTMLInputElement).labels;
    return labels ? dom.normalize([...labels].map((l) => l.textContent ?? '').join(' ')) : '';
  };

  const nameOf = (element: Element) => {
    const aria = ariaName(element);
    if (aria !== '') return aria;
    if (element instanceof HTMLInputElement) {
      if (['button', 'submit', 'reset'].includes(element.type) && element.value)
        return dom.normalize(element.value);
      if (element.type === 'image' && element.alt) return dom.normalize(element.alt);
      const labels = labelsOf(element);
      if (labels !== '') return labels;
      if (element.placeholder) return dom.normalize(element.placeholder);
    }
    const title = element.getAttribute('title');
    const text = dom.textOf(element, NAME_CHARS + 1).text;
    if (text !== '') return text;
    return title === null ? '' : dom.normalize(title);
  };

  const labelOf = (element: Element) => {
    const aria = ariaName(element);
    if (aria !== '') return aria;
    const labels = labelsOf(element);
    if (labels !== '') return labels;
    const placeholder = element.getAttribute('placeholder');
    if (placeholder !== null && dom.normalize(placeholder) !== '') return dom.normalize(placeholder);
    return dom.normalize(element.getAttribute('title') ?? '');
  };

  return { roleOf, nameOf, labelOf };
}
