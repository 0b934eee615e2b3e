/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/*
 * World code (see perception/world/world-dom.ts): these functions run in the page's isolated
 * world, serialized with Function.prototype.toString, so each is self-contained. The DOM is the
 * page's; the prototypes they call are the world's own, out of the page's reach.
 */

export interface ElementChange {
  readonly set?: Readonly<Record<string, string>>;
  readonly addClasses?: readonly string[];
  readonly removeClasses?: readonly string[];
}

export interface ElementsStyled {
  readonly elements: number;
  /** Properties the browser did not take (an unknown property, a value that does not parse). */
  readonly rejected: string[];
}

/** Applies `change` to each element: inline style properties (`!important` kept), then classes. */
export function styleElements(elements: readonly Element[], change: ElementChange): ElementsStyled {
  const rejected = new Set<string>();
  for (const element of elements) {
    const style = (element as HTMLElement).style as CSSStyleDeclaration | undefined;
    for (const [property, written] of Object.entries(change.set ?? {})) {
      if (style === undefined) {
        rejected.add(property);
        continue;
      }
      const important = /\s*!\s*important\s*$/i.exec(written);
      const value = important ? written.slice(0, important.index) : written;
      style.setProperty(property, value, important ? 'important' : '');
      if (value.trim() !== '' && style.getPropertyValue(property) === '') rejected.add(property);
    }
    if (change.removeClasses) element.classList.remove(...change.removeClasses);
    if (change.addClasses) element.classList.add(...change.addClasses);
  }
  return { elements: elements.length, rejected: [...rejected] };
}

/** The elements `selector` matches in the document, or why it is no selector. */
export function selected(selector: string): Element[] | { invalidSelector: string } {
  try {
    return [...document.querySelectorAll(selector)];
  } catch (error) {
    return { invalidSelector: error instanceof Error ? error.message : String(error) };
  }
}

/** The element as a person can check it in an approval: tag, id, classes, and its text or label. */
export function describeElement(element: Element): string {
  const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
  const id = element.id === '' ? '' : `#${clip(element.id, 64)}`;
  const classes = [...element.classList]
    .slice(0, 3)
    .map((name) => `.${clip(name, 64)}`)
    .join('');
  const label = (element.getAttribute('aria-label') ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();
  return `${element.tagName.toLowerCase()}${id}${classes}${label === '' ? '' : ` "${clip(label, 80)}"`}`;
}

/** Adds `css` to the document as a stylesheet of its own (a constructed one: a page's CSP does not stop it). */
export function injectStylesheet(css: string): { rules: number } {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  return { rules: sheet.cssRules.length };
}
