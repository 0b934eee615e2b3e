/// <reference lib="dom" />
import mermaid from 'mermaid';

/*
 * Built on its own as ui/dist/rich-mermaid.js (rolldown.config.mjs), loaded the first time a note
 * has a ```mermaid block. `securityLevel: 'strict'`: labels are sanitised (DOMPurify), no click
 * handlers, no HTML tags from the diagram; the SVG is parsed as SVG (never run) and the page's CSP
 * (`script-src 'self'`, no 'unsafe-inline') stops any handler that got through regardless.
 */

mermaid.initialize({
  startOnLoad: false,
  securityLevel: 'strict',
  // Labels as SVG text, never HTML in a foreignObject: a label's markup is never parsed.
  htmlLabels: false,
  theme: 'neutral',
  fontFamily: 'inherit',
});

let next = 0;

/** The diagram as an SVG element, or the parser's message as an Error. */
export async function renderDiagram(source: string): Promise<Element> {
  const id = `vmark-mermaid-${++next}`;
  try {
    const { svg } = await mermaid.render(id, source);
    const parsed = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
    if (parsed.nodeName !== 'svg') throw new Error('Mermaid gave no SVG');
    return document.importNode(parsed, true);
  } finally {
    // A failed render leaves its scratch element (and an error drawing) in the page.
    document.getElementById(id)?.remove();
    document.getElementById(`d${id}`)?.remove();
  }
}
