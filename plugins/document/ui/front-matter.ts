/// <reference lib="dom" />
import type { Extension, Range, Text } from '@codemirror/state';
import { StateField } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView } from '@codemirror/view';
import { frontMatterLength } from '@vmark/sdk/markdown';
import { frontMatterTheme } from './markdown-theme.js';

/*
 * The front matter display: Markdown itself knows no front matter — it read the block as
 * paragraphs and the line before the closing fence as a setext heading, so the identity lines
 * the coherence layer adds (`vmark:` / `id:`) showed as a bold heading. Both modes show the
 * block as metadata instead. Recognised as the CJK transforms recognise it (@vmark/sdk/markdown).
 */

/** How much of the document to read first for its front matter. */
const HEAD = 64 * 1024;

/** The front matter block, from the start of the document to the end of its closing line. */
export function frontMatterRange(doc: Text): { from: number; to: number } | null {
  // Run on every change: a note whose first characters cannot open a block (closed at once, by the
  // SDK's own rule) is answered by them; the head alone answers for nearly every other, 10 MB included.
  if (frontMatterLength(doc.sliceString(0, 4) + '\n---') === 0) return null;
  const head = doc.sliceString(0, HEAD);
  let length = frontMatterLength(head);
  if (length === 0 && doc.length > HEAD && head.length > 0 && frontMatterLength(head + '\n---') > 0)
    length = frontMatterLength(doc.toString());
  return length === 0 ? null : { from: 0, to: length };
}

const line = Decoration.line({ class: 'cm-frontmatter' });

function decorations(doc: Text): DecorationSet {
  const range = frontMatterRange(doc);
  if (range === null) return Decoration.none;
  const out: Range<Decoration>[] = [];
  for (let n = 1; n <= doc.lineAt(range.to).number; n++) out.push(line.range(doc.line(n).from));
  return Decoration.set(out);
}

const frontMatterLines = StateField.define<DecorationSet>({
  create: (state) => decorations(state.doc),
  update: (value, tr) => (tr.docChanged ? decorations(tr.state.doc) : value),
  provide: (field) => EditorView.decorations.from(field),
});

export const frontMatter: Extension = [frontMatterLines, frontMatterTheme];
