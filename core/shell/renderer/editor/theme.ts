import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';

/*
 * A calm light theme: ink on paper, one accent colour, markup in a soft grey.
 * Sizes and fonts live in renderer.css (by mode); this holds what CodeMirror
 * must own: colours of syntax, cursor and selection.
 */

const highlight = HighlightStyle.define([
  { tag: t.heading, fontWeight: '650', color: '#1d1f23' },
  { tag: t.strong, fontWeight: '700' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.strikethrough, textDecoration: 'line-through', color: '#6b6f76' },
  { tag: [t.processingInstruction, t.contentSeparator], color: '#a3a8b0' },
  { tag: t.link, color: '#2f6fde' },
  { tag: t.url, color: '#8a8f98' },
  { tag: t.quote, color: '#4b4f57' },
  { tag: t.monospace, fontFamily: 'var(--font-mono)', fontSize: '0.92em', color: '#3a3f48' },
  // Data languages (keys, strings, literals): a kind's view picks the language, the colours are the editor's.
  { tag: [t.propertyName, t.definition(t.propertyName)], color: '#2a5db0' },
  { tag: [t.string, t.special(t.string)], color: '#2b7a48' },
  { tag: [t.number, t.bool, t.null], color: '#a4531f' },
  { tag: t.comment, color: '#8a8f98', fontStyle: 'italic' },
  { tag: [t.keyword, t.typeName, t.labelName], color: '#8a3fb0' },
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

export const editorTheme = [base, syntaxHighlighting(highlight)];
