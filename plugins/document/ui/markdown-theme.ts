/// <reference lib="dom" />
import { EditorView } from '@codemirror/view';

/*
 * How the Markdown view looks: Live mode's type (headings, links, code, quotes, bullets) and the
 * front matter's metadata lines. The editor's page gives the fonts and colours (its CSS variables);
 * the classes are the view's own (live-preview.ts, front-matter.ts), so the styles travel with it.
 */

export const livePreviewTheme = EditorView.baseTheme({
  // The page's Editor settings (font size, line width) come as variables, with these defaults.
  '&.cm-live-preview': { font: 'var(--editor-font-size, 17px) / 1.75 var(--font-text)' },
  '&.cm-live-preview .cm-content': { maxWidth: 'var(--editor-line-width, 46rem)' },
  '.cm-lp-h1': { fontSize: '1.9em', lineHeight: '1.3', paddingTop: '0.6em !important' },
  '.cm-lp-h2': { fontSize: '1.45em', lineHeight: '1.35', paddingTop: '0.8em !important' },
  '.cm-lp-h3': { fontSize: '1.2em', paddingTop: '0.6em !important' },
  '.cm-lp-h4, .cm-lp-h5, .cm-lp-h6': { fontSize: '1.05em' },
  '.cm-lp-link, .cm-lp-link *': { color: 'var(--accent)' },
  '.cm-lp-code': { padding: '0.1em 0.3em', borderRadius: '4px', background: 'var(--code-bg, #f0f0ed)' },
  '.cm-lp-codeblock': {
    fontFamily: 'var(--font-mono)',
    fontSize: '0.88em',
    background: 'var(--code-block-bg, #f6f6f3)',
    padding: '0 14px !important',
  },
  '.cm-lp-quote': {
    borderLeft: '3px solid var(--rule)',
    paddingLeft: '14px !important',
    color: 'var(--ink-soft)',
  },
  '.cm-lp-bullet': { color: 'var(--ink-faint)' },
});

/** Metadata in both modes, never a heading. */
export const frontMatterTheme = EditorView.baseTheme({
  '.cm-line.cm-frontmatter': {
    fontFamily: 'var(--font-mono)',
    fontSize: '0.85em',
    color: 'var(--syntax-url, #8a8f98)',
  },
  '.cm-line.cm-frontmatter span': {
    fontWeight: 'inherit !important',
    fontSize: 'inherit !important',
    color: 'inherit !important',
    textDecoration: 'none !important',
  },
});
