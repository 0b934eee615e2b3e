/**
 * The page of bench/editor-parse-ladder.mjs: one CodeMirror editor whose extensions climb, rung by
 * rung, from the editor benchmark's peer (bench/editor-peer-page.mjs) to vmark's source mode, so
 * that one page, one Chromium and one moment's load show what each part of vmark's editor costs a
 * keystroke. Bundled at run time by rolldown from vmark's own sources (the Markdown view, the
 * renderer's theme and find panel), not from copies. Browser code; the script drives it through
 * `window.ladder`.
 */
/* global window, document */
import { collab } from '../core/shell/renderer/editor/collab-state.ts';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import {
  defaultHighlightStyle,
  forceParsing,
  syntaxHighlighting,
  syntaxTreeAvailable,
} from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, keymap, placeholder } from '@codemirror/view';
import { Wikilink } from '@vmark/sdk/markdown';
import { blinkingCursor } from '../core/shell/renderer/editor/cursor-blink.ts';
import { editorTheme } from '../core/shell/renderer/editor/theme.ts';
import { findInFile } from '../core/shell/renderer/find/find-panel.ts';
import { codeLanguage, FootnoteSyntax, MathSyntax } from '../plugins/document/ui/live/index.ts';
import { view as markdownView } from '../plugins/document/ui/markdown-view.ts';

/** What every rung has: the peer's basics. */
const basics = [
  EditorState.lineSeparator.of('\n'),
  history(),
  drawSelection(),
  EditorView.lineWrapping,
  keymap.of([...defaultKeymap, ...historyKeymap]),
];

/** The page's door as the Markdown view sees it: nothing behind it is used while typing. */
const api = {
  imageUrl: () => '',
  saveImage: () => Promise.reject(new Error('no host')),
  setting: () => undefined,
  onSettingsChange: () => () => undefined,
  request: () => Promise.reject(new Error('no host')),
  subscribe: () => () => undefined,
  open: () => Promise.resolve(),
};
const tab = { id: 'tab-1', title: 'huge.md', filePath: '/huge.md', kind: 'markdown' };

const gfm = (extensions, more = {}) => markdown({ base: markdownLanguage, extensions, ...more });

/** The rungs, each the one before it plus one part (the name says which). */
export const RUNGS = [
  { name: 'peer: markdown() (CommonMark), no highlighting', extensions: () => [markdown()] },
  { name: '+ vmark highlighting (theme)', extensions: () => [markdown(), editorTheme] },
  { name: '+ GFM base (markdownLanguage)', extensions: () => [gfm([]), editorTheme] },
  { name: '+ MathSyntax', extensions: () => [gfm([MathSyntax]), editorTheme] },
  { name: '+ FootnoteSyntax', extensions: () => [gfm([MathSyntax, FootnoteSyntax]), editorTheme] },
  { name: '+ Wikilink', extensions: () => [gfm([MathSyntax, FootnoteSyntax, Wikilink]), editorTheme] },
  {
    name: '+ codeLanguages',
    extensions: () => [
      gfm([MathSyntax, FootnoteSyntax, Wikilink], { codeLanguages: codeLanguage }),
      editorTheme,
    ],
  },
  {
    name: '+ the rest of the Markdown view (code colours, front matter, images, links)',
    extensions: () => [markdownView.extensions(tab, api), editorTheme],
  },
  {
    name: "+ the page's own (collab, placeholder, Tab, find, the cursor's blink): vmark source mode",
    extensions: () => [
      collab({ startVersion: 0 }),
      blinkingCursor(),
      placeholder('Start writing…'),
      keymap.of([indentWithTab]),
      markdownView.extensions(tab, api),
      editorTheme,
      findInFile(),
    ],
  },
  {
    // Not a step of the ladder: the peer with the highlighting its header names, CodeMirror's own.
    name: "peer + CodeMirror's own highlighting (defaultHighlightStyle)",
    extensions: () => [markdown(), syntaxHighlighting(defaultHighlightStyle)],
  },
];

const view = new EditorView({ parent: document.getElementById('editor') });

window.ladder = {
  rungs: RUNGS.map((rung) => rung.name),
  /** Fetches the file and shows it with rung `index`'s extensions. */
  async load(url, index) {
    const text = await (await fetch(url)).text();
    view.setState(EditorState.create({ doc: text, extensions: [basics, RUNGS[index].extensions()] }));
    view.focus();
  },
  /** Parses the whole document now, in slices (a diagnostic: how a rung types once its tree is whole). */
  async settle() {
    while (!syntaxTreeAvailable(view.state, view.state.doc.length)) {
      forceParsing(view, view.state.doc.length, 200);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  },
};
