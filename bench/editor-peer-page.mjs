/**
 * The editor benchmark's peer (bench/editor-latency.mjs): a bare CodeMirror 6
 * page, bundled at bench time from the same @codemirror packages as vmark's
 * renderer, with vmark's source-mode basics (history, keymap, line wrapping, the
 * Markdown language) and nothing else: no host, no collab, no live preview, and no
 * highlight style, so CodeMirror draws no colours (bench/editor-parse-ladder.mjs
 * measures it with CodeMirror's own, ADR 96).
 * Browser code; the bench drives it through `window.peer`.
 */
/* global window, document */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, keymap } from '@codemirror/view';

const extensions = [
  EditorState.lineSeparator.of('\n'),
  history(),
  drawSelection(),
  EditorView.lineWrapping,
  keymap.of([...defaultKeymap, ...historyKeymap]),
  markdown(),
];
const view = new EditorView({ parent: document.getElementById('editor') });

window.peer = {
  /** Fetches a static file and shows it, as vmark shows a file it opened. */
  async load(url) {
    const text = await (await fetch(url)).text();
    view.setState(EditorState.create({ doc: text, extensions }));
    view.focus();
  },
  /** The same change an MCP write makes, through the editor's own dispatch. */
  replace(from, to, insert) {
    view.dispatch({ changes: { from, to, insert } });
  },
  /** What `selection.set` does, in the page: the selection replaced by `insert`. */
  replaceSelection(insert) {
    view.dispatch(view.state.replaceSelection(insert));
  },
};
