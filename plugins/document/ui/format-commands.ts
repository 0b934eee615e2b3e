/*
 * The Markdown view's formatting commands (ADR 72): the manifest declares them
 * (`contributes.editorCommands`, `runsIn: "page"`, with their keys and `when`); the editor page
 * runs them here, on the editor they are pressed in, each range of the selection edited by the
 * pure functions of markdown-format.ts, the whole as one transaction (one undo step).
 */
import { isolateHistory } from '@codemirror/commands';
import { EditorSelection, type EditorState } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import type { PageCommandHandler } from '@vmark/sdk';
import {
  type BlockFormat,
  type Edit,
  type InlineMark,
  type Range,
  toggleBlock,
  toggleCodeBlock,
  toggleInline,
  toggleLink,
} from './markdown-format.js';

type RangeEdit = (text: string, range: Range) => Edit;

/** Runs `edit` on every range of the selection, as one transaction a person's undo takes back at once. */
export function runEdit(view: EditorView, edit: RangeEdit): boolean {
  const state: EditorState = view.state;
  const text = state.doc.toString();
  let changed = false;
  const spec = state.changeByRange((range) => {
    const result = edit(text, { anchor: range.anchor, head: range.head });
    if (result.changes.length > 0) changed = true;
    return {
      changes: result.changes.map((c) => ({ from: c.from, to: c.to, insert: c.insert })),
      range: EditorSelection.range(result.range.anchor, result.range.head),
    };
  });
  if (!changed) return false;
  // Its own undo step: typing right after it is never folded into it, nor it into typing before.
  const annotations = isolateHistory.of('full');
  view.dispatch(state.update(spec, { scrollIntoView: true, userEvent: 'input.format', annotations }));
  return true;
}

const inline =
  (mark: InlineMark): PageCommandHandler<EditorView> =>
  (view) =>
    runEdit(view, (text, range) => toggleInline(text, range, mark));

const block =
  (format: BlockFormat): PageCommandHandler<EditorView> =>
  (view) =>
    runEdit(view, (text, range) => toggleBlock(text, range, format));

/** By command id, as the manifest declares them. */
export const formatCommands: Readonly<Record<string, PageCommandHandler<EditorView>>> = {
  'document.bold': inline('bold'),
  'document.italic': inline('italic'),
  'document.inlineCode': inline('code'),
  'document.strikethrough': inline('strikethrough'),
  'document.link': (view) => runEdit(view, toggleLink),
  'document.heading1': block({ type: 'heading', level: 1 }),
  'document.heading2': block({ type: 'heading', level: 2 }),
  'document.heading3': block({ type: 'heading', level: 3 }),
  'document.heading4': block({ type: 'heading', level: 4 }),
  'document.heading5': block({ type: 'heading', level: 5 }),
  'document.heading6': block({ type: 'heading', level: 6 }),
  'document.paragraph': block({ type: 'paragraph' }),
  'document.bulletList': block({ type: 'bullet' }),
  'document.numberedList': block({ type: 'numbered' }),
  'document.taskList': block({ type: 'task' }),
  'document.quote': block({ type: 'quote' }),
  'document.codeBlock': (view) => runEdit(view, toggleCodeBlock),
};
