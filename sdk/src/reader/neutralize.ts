/**
 * Takes out of a parsed page what must never reach the Markdown or run anywhere: event-handler
 * attributes and URLs with a script-carrying scheme (`javascript:`, `vbscript:`, non-image
 * `data:`). Done once, before either reader sees the document.
 */

const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'srcset', 'data-src'];
const SAFE_SCHEME = /^(?:https?|mailto|tel|ftp):/i;
const IMAGE_DATA = /^data:image\/(?:png|gif|jpe?g|webp|avif);/i;

export function neutralize(document: Document): void {
  for (const element of Array.from(document.querySelectorAll('*'))) {
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith('on')) element.removeAttribute(attribute.name);
      else if (URL_ATTRIBUTES.includes(name) && !safeUrl(attribute.value, element.tagName))
        element.removeAttribute(attribute.name);
    }
  }
}

function safeUrl(value: string, tagName: string): boolean {
  // Browsers ignore control characters and spaces inside a scheme (`java\tscript:`).
  const compact = [...value].filter((c) => c.charCodeAt(0) > 0x20).join('');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  if (scheme === null) return true; // relative: resolved against the page's URL later
  if (SAFE_SCHEME.test(compact)) return true;
  return tagName.toLowerCase() === 'img' && IMAGE_DATA.test(compact);
}
