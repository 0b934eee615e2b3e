/**
 * Line numbers out of code blocks: highlighters print them as text (Pygments' `linenos` spans,
 * a `line-number` span per line) or as a gutter beside the code (a table of a numbers cell and
 * a code cell: Pygments, Rouge, GitHub, highlight.js's line-numbers plugin). Copied into a
 * fence they become part of the code, so the reader drops them and keeps the code alone.
 */

/** Classes highlighters give a line number or a gutter of them. */
const NUMBER_CLASS =
  /(?:^|\s)(?:linenos?|linenodiv|line-?numbers?(?:-rows)?|linenumber|lineno|ln|gutter|rouge-gutter|blob-num|hljs-ln-numbers|hljs-ln-n)(?:\s|$)/i;

/** Text a line number (or a column of them) can be: digits and white space, or nothing. */
const NUMBERS_ONLY = /^[\s\d]*$/;

export function withoutLineNumbers(document: Document, body: Element): void {
  for (const table of Array.from(body.querySelectorAll('table'))) {
    if (table.isConnected) flattenGutterTable(document, table);
  }
  for (const pre of Array.from(body.querySelectorAll('pre'))) {
    for (const element of Array.from(pre.querySelectorAll('[class]'))) {
      if (isLineNumber(element)) element.remove();
    }
  }
}

function isLineNumber(element: Element): boolean {
  return (
    NUMBER_CLASS.test(element.getAttribute('class') ?? '') && NUMBERS_ONLY.test(element.textContent ?? '')
  );
}

/**
 * A table whose rows are line numbers beside code: one code cell spanning the lines (a gutter
 * table) becomes that cell's code; a row per line (highlight.js) becomes the rows' code, a line
 * each. Any other table is left as it is.
 */
function flattenGutterTable(document: Document, table: Element): void {
  const rows = Array.from(table.querySelectorAll('tr')).filter((row) => row.closest('table') === table);
  if (rows.length === 0) return;
  const codeCells: Element[] = [];
  for (const row of rows) {
    const cells = Array.from(row.children).filter((c) => c.tagName === 'TD' || c.tagName === 'TH');
    if (cells.length !== 2 || !isLineNumber(cells[0]!)) return;
    codeCells.push(cells[1]!);
  }
  const insideCode = table.closest('pre, code') !== null;
  if (!insideCode && codeCells.length === 1) {
    const code = codeCells[0]!.querySelector('pre') ?? codeCells[0]!;
    table.replaceWith(code.tagName === 'PRE' ? code : preOf(document, code.textContent ?? ''));
    return;
  }
  const text = codeCells.map((cell) => (cell.textContent ?? '').replace(/\n$/, '')).join('\n');
  table.replaceWith(insideCode ? document.createTextNode(text) : preOf(document, text));
}

function preOf(document: Document, text: string): Element {
  const pre = document.createElement('pre');
  pre.textContent = text;
  return pre;
}
