import { EditorView } from '@codemirror/view';

/* How Live mode's rich rendering looks (ADR 73). Colours through the page's variables where it has them. */

const callout = (kind: string, color: string) => ({
  [`.cm-line.cm-lp-callout-${kind}`]: { '--callout': color },
});

export const richTheme = EditorView.baseTheme({
  // A drawn block paints apart (`contain: paint`, clipped as its scrolling already clips it): a
  // keystroke's frame reuses its painting whole instead of walking its cells and formulas (ADR 110).
  '.cm-lp-table, .cm-lp-math-block': { contain: 'paint' },
  '.cm-lp-table': { padding: '6px 0', overflowX: 'auto', cursor: 'text' },
  '.cm-lp-table table': { borderCollapse: 'collapse', fontSize: '0.95em' },
  '.cm-lp-table th, .cm-lp-table td': {
    border: '1px solid var(--rule, #d0d7de)',
    padding: '4px 10px',
    verticalAlign: 'top',
  },
  '.cm-lp-table th': { background: 'var(--surface-soft, #f6f8fa)', fontWeight: '600' },
  '.cm-lp-table code': { fontFamily: 'var(--font-mono)', fontSize: '0.9em' },
  '.cm-lp-math-block': { textAlign: 'center', padding: '6px 0', overflowX: 'auto' },
  '.cm-lp-math-source': {
    fontFamily: 'var(--font-mono)',
    fontSize: '0.9em',
    color: 'var(--ink-soft, #57606a)',
  },
  '.cm-lp-error': {
    color: 'var(--danger, #cf222e)',
    fontFamily: 'var(--font-mono)',
    fontSize: '0.85em',
    whiteSpace: 'pre-wrap',
  },
  '.cm-lp-mermaid': {
    display: 'flex',
    justifyContent: 'center',
    padding: '8px 0',
    color: 'var(--ink-faint, #8c959f)',
  },
  '.cm-lp-mermaid svg': { maxWidth: '100%', height: 'auto' },
  '.cm-lp-task': { margin: '0 0.45em 0 0.1em', verticalAlign: 'middle', cursor: 'pointer' },
  '.cm-lp-task-done': { color: 'var(--ink-faint, #8c959f)', textDecoration: 'line-through' },
  '.cm-lp-fnref, .cm-lp-fnlabel': {
    color: 'var(--accent, #0969da)',
    fontSize: '0.75em',
    verticalAlign: 'super',
    lineHeight: '0',
  },
  '.cm-lp-fnlabel': { marginRight: '0.5em' },
  '.cm-lp-fnref-source': { color: 'var(--accent, #0969da)' },
  '.cm-line.cm-lp-footnote': { fontSize: '0.9em', color: 'var(--ink-soft, #57606a)' },
  '.cm-line.cm-lp-callout': {
    '--callout': '#0969da',
    borderLeft: '4px solid var(--callout) !important',
    background: 'color-mix(in srgb, var(--callout) 9%, transparent)',
    paddingLeft: '14px !important',
    color: 'inherit',
  },
  '.cm-line.cm-lp-callout-head': { paddingTop: '4px !important', fontWeight: '600', color: 'var(--callout)' },
  '.cm-line.cm-lp-callout-last': { paddingBottom: '4px !important' },
  '.cm-lp-callout-icon': { marginRight: '0.4em' },
  '.cm-lp-callout-title': { color: 'var(--callout)', fontWeight: '600' },
  ...callout('abstract', '#1a7f83'),
  ...callout('info', '#0969da'),
  ...callout('todo', '#0969da'),
  ...callout('tip', '#1a7f37'),
  ...callout('success', '#1a7f37'),
  ...callout('question', '#9a6700'),
  ...callout('warning', '#bc4c00'),
  ...callout('failure', '#cf222e'),
  ...callout('danger', '#cf222e'),
  ...callout('bug', '#cf222e'),
  ...callout('example', '#8250df'),
  ...callout('quote', '#6e7781'),
});
