/// <reference lib="dom" />
import katex from 'katex';
import katexCss from 'virtual:katex-css';

/*
 * Built on its own as ui/dist/rich-math.js (rolldown.config.mjs), loaded the first time a note
 * shows math. KaTeX draws into the element itself (no HTML string from the note), with `trust`
 * off (no \href, \includegraphics, \htmlClass…); its style sheet is the package's, with the fonts
 * served by the host beside this module (katex-fonts/, `?token=` kept), never from a CDN.
 */

let styled = false;

/** KaTeX's style sheet in the page, once: the build left `__KATEX_FONTS__` where its fonts go. */
function addStyles(): void {
  if (styled) return;
  styled = true;
  const here = new URL(import.meta.url);
  const fonts = new URL('./katex-fonts/', here).href;
  const style = document.createElement('style');
  style.dataset.vmark = 'katex';
  style.textContent = katexCss.replace(
    /__KATEX_FONTS__([\w-]+\.woff2)/g,
    (_, file: string) => `${fonts}${file}${here.search}`,
  );
  document.head.append(style);
}

/** Renders `tex` into `element`; a parse error is shown in its place, as text. */
export function renderMath(element: HTMLElement, tex: string, display: boolean): void {
  addStyles();
  try {
    katex.render(tex, element, {
      displayMode: display,
      throwOnError: true,
      trust: false,
      strict: 'ignore',
      output: 'htmlAndMathml',
    });
  } catch (error) {
    element.replaceChildren();
    const message = document.createElement('span');
    message.className = 'cm-lp-error';
    message.textContent = error instanceof Error ? error.message : String(error);
    element.append(message);
  }
}
