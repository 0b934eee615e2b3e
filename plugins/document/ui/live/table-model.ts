import type { SyntaxNode } from '@lezer/common';
import { GFM, parser } from '@lezer/markdown';

/*
 * A GFM table as Live mode draws it: its alignments (from the delimiter row), the header's cells
 * and each row's, every cell with its text and where that text starts in the table's source (a
 * click on the cell puts the cursor there).
 */

export type Align = 'left' | 'center' | 'right' | null;

export interface TableCell {
  readonly text: string;
  /** Offset of the cell's text from the table's first character. */
  readonly offset: number;
}

export interface TableModel {
  readonly align: readonly Align[];
  readonly header: readonly TableCell[];
  readonly rows: readonly (readonly TableCell[])[];
}

/**
 * A row's cells: the text between its `|` delimiters, trimmed (an empty cell too, which the parser
 * gives no node), without the empty ends that a leading or trailing `|` makes.
 */
function cells(source: string, row: SyntaxNode, base: number): TableCell[] {
  const bounds: number[] = [row.from];
  for (const pipe of row.getChildren('TableDelimiter')) bounds.push(pipe.from, pipe.to);
  bounds.push(row.to);
  const out: TableCell[] = [];
  for (let i = 0; i < bounds.length; i += 2) {
    const raw = source.slice(bounds[i], bounds[i + 1]);
    const edge = i === 0 || i === bounds.length - 2;
    if (edge && raw.trim() === '' && bounds.length > 2) continue;
    const lead = raw.length - raw.trimStart().length;
    out.push({ text: raw.trim(), offset: bounds[i]! + lead - base });
  }
  return out;
}

/** `:--`, `:-:`, `--:` or `---`, for each column of the delimiter row. */
export function alignments(delimiterRow: string): Align[] {
  return delimiterRow
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((spec) => {
      const s = spec.trim();
      const left = s.startsWith(':');
      const right = s.endsWith(':');
      return left && right ? 'center' : right ? 'right' : left ? 'left' : null;
    });
}

/** The table that `table` (a `Table` node of a tree of `source`) is. */
export function readTable(source: string, table: SyntaxNode): TableModel {
  let header: TableCell[] = [];
  let align: Align[] = [];
  const rows: TableCell[][] = [];
  for (let child = table.firstChild; child !== null; child = child.nextSibling) {
    if (child.name === 'TableHeader') header = cells(source, child, table.from);
    else if (child.name === 'TableRow') rows.push(cells(source, child, table.from));
    else if (child.name === 'TableDelimiter' && align.length === 0) {
      const lineStart = source.lastIndexOf('\n', child.from - 1) + 1;
      const lineEnd = source.indexOf('\n', child.from);
      align = alignments(source.slice(lineStart, lineEnd < 0 ? source.length : lineEnd));
    }
  }
  return { align, header, rows };
}

const gfm = parser.configure(GFM);

/**
 * The table a block's source is (its whole lines, as the editor's tree found it), read again on
 * its own when it is drawn: the editor's tree is not kept, and only drawn tables are read.
 * Offsets are from the start of `source`.
 */
export function tableFromSource(source: string): TableModel | null {
  const table = gfm.parse(source).topNode.getChild('Table');
  if (table === null) return null;
  const model = readTable(source, table);
  return table.from === 0 ? model : shift(model, table.from);
}

function shift(model: TableModel, by: number): TableModel {
  const move = (cells: readonly TableCell[]) => cells.map((c) => ({ ...c, offset: c.offset + by }));
  return { align: model.align, header: move(model.header), rows: model.rows.map(move) };
}
