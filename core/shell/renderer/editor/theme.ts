import { HighlightStyle } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import { highlightStyle, viewportHighlighter } from './viewport-highlighter.js';

/*
 * A calm theme: ink on paper, one accent colour, markup in a soft grey. Sizes,
 * fonts and the colours themselves live in renderer.css (by mode and by light or
 * dark theme, as variables); this holds what CodeMirror must own: which
 * variable colours syntax, cursor and selection.
 */

const highlight = HighlightStyle.define([
  { tag: t.heading, fontWeight: '650', color: 'var(--syntax-heading)' },
  { tag: t.strong, fontWeight: '700' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.strikethrough, textDecoration: 'line-through', color: 'var(--syntax-soft)' },
  { tag: [t.processingInstruction, t.contentSeparator], color: 'var(--syntax-mark)' },
  { tag: t.link, color: 'var(--syntax-link)' },
  { tag: t.url, color: 'var(--syntax-url)' },
  { tag: t.quote, color: 'var(--syntax-quote)' },
  { tag: t.monospace, fontFamily: 'var(--font-mono)', fontSize: '0.92em', color: 'var(--syntax-code)' },
  // Data languages (keys, strings, literals): a kind's view picks the language, the colours are the editor's.
  { tag: [t.propertyName, t.definition(t.propertyName)], color: 'var(--syntax-property)' },
  { tag: [t.string, t.special(t.string)], color: 'var(--syntax-string)' },
  { tag: [t.number, t.bool, t.null], color: 'var(--syntax-number)' },
  { tag: t.comment, color: 'var(--syntax-url)', fontStyle: 'italic' },
  { tag: [t.keyword, t.typeName, t.labelName], color: 'var(--syntax-keyword)' },
]);

const base = EditorView.theme({
  '&': { height: '100%', backgroundColor: 'transparent', color: 'var(--ink)' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'inherit', lineHeight: 'inherit', overflow: 'auto' },
  '.cm-content': { caretColor: 'var(--accent)', padding: '48px 0 40vh' },
  '.cm-line': { padding: '0' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--accent)', borderLeftWidth: '2px' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection':
    { backgroundColor: 'var(--selection)' },
  '.cm-activeLine': { backgroundColor: 'transparent' },
  '.cm-gutters': { display: 'none' },
});

/** The theme, its colours, and the highlighter that draws them and every kind's (ADR 96). */
export const editorTheme = [base, highlightStyle(highlight), viewportHighlighter];
