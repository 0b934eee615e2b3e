import type { Extension, Range, Text } from '@codemirror/state';
import { StateField } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView } from '@codemirror/view';

/*
 * YAML front matter: a `---` first line up to a later `---` or `...` line (the second line
 * never closes it; unclosed, it is ordinary content — the recognition rule of vmark-notes §7.2).
 * Markdown itself knows no front matter: it read the block as paragraphs and the line before
 * the closing fence as a setext heading, so the identity lines the coherence layer adds
 * (`vmark:` / `id:`) showed as a bold heading. Both modes show the block as metadata instead.
 */

/** The front matter block, from the start of the document to the end of its closing line. */
export function frontMatterRange(doc: Text): { from: number; to: number } | null {
  if (doc.lines < 3 || doc.line(1).text !== '---') return null;
  for (let n = 3; n <= doc.lines; n++) {
    const text = doc.line(n).text;
    if (text === '---' || text === '...') return { from: 0, to: doc.line(n).to };
  }
  return null;
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

export const frontMatter: Extension = frontMatterLines;
