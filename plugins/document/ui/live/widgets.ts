/// <reference lib="dom" />
import { isolateHistory } from '@codemirror/commands';
import { type EditorView, WidgetType } from '@codemirror/view';
import type { CalloutStyle } from './callouts.js';
import { renderInline } from './inline-render.js';
import { loadSibling } from './lazy.js';
import { type TableModel, tableFromSource } from './table-model.js';
import { toggleTask } from './tasks.js';

/*
 * What Live mode draws in place of Markdown. Every widget compares by what it draws (`eq`), so a
 * rebuild of the decorations keeps the DOM of everything that did not change.
 */

interface MathModule {
  renderMath(element: HTMLElement, tex: string, display: boolean): void;
}

interface MermaidModule {
  renderDiagram(source: string): Promise<Element>;
}

/** Draws math once KaTeX is loaded; the TeX shows meanwhile. */
function drawMath(element: HTMLElement, tex: string, display: boolean, view?: EditorView): void {
  element.textContent = tex;
  loadSibling<MathModule>('rich-math.js').then(
    (katex) => {
      katex.renderMath(element, tex, display);
      view?.requestMeasure();
    },
    (error: unknown) => showError(element, `KaTeX did not load: ${String(error)}`),
  );
}

/** A click on a drawn block puts the cursor at its start (plus `offset`): the block shows its source. */
function editOnClick(
  view: EditorView,
  element: HTMLElement,
  offset: (event: MouseEvent) => number = () => 0,
): void {
  element.addEventListener('mousedown', (event) => {
    event.preventDefault();
    view.dispatch({ selection: { anchor: view.posAtDOM(element) + offset(event) }, scrollIntoView: true });
    view.focus();
  });
}

function showError(element: HTMLElement, message: string): void {
  const error = document.createElement('span');
  error.className = 'cm-lp-error';
  error.textContent = message;
  element.replaceChildren(error);
}

export class MathWidget extends WidgetType {
  constructor(
    readonly tex: string,
    readonly display: boolean,
  ) {
    super();
  }

  override eq(other: MathWidget): boolean {
    return other.tex === this.tex && other.display === this.display;
  }

  toDOM(view: EditorView): HTMLElement {
    const element = document.createElement(this.display ? 'div' : 'span');
    element.className = this.display ? 'cm-lp-math cm-lp-math-block' : 'cm-lp-math';
    drawMath(element, this.tex, this.display, view);
    if (this.display) editOnClick(view, element);
    return element;
  }

  /** Inline math leaves a click to the editor (the cursor goes there); a block takes it (editOnClick). */
  override ignoreEvent(): boolean {
    return this.display;
  }
}

/** Diagrams drawn, by source: a rebuilt widget clones the drawing instead of asking Mermaid again. */
const diagrams = new Map<string, Promise<Element>>();

function diagram(source: string): Promise<Element> {
  let drawing = diagrams.get(source);
  if (drawing === undefined) {
    drawing = loadSibling<MermaidModule>('rich-mermaid.js').then((mermaid) => mermaid.renderDiagram(source));
    if (diagrams.size >= 64) diagrams.delete(diagrams.keys().next().value!);
    diagrams.set(source, drawing);
  }
  return drawing;
}

export class MermaidWidget extends WidgetType {
  constructor(readonly source: string) {
    super();
  }

  override eq(other: MermaidWidget): boolean {
    return other.source === this.source;
  }

  toDOM(view: EditorView): HTMLElement {
    const element = document.createElement('div');
    element.className = 'cm-lp-mermaid';
    element.textContent = 'Drawing the diagram…';
    diagram(this.source).then(
      (svg) => {
        element.replaceChildren(svg.cloneNode(true));
        view.requestMeasure();
      },
      (error: unknown) => {
        showError(element, `Mermaid: ${error instanceof Error ? error.message : String(error)}`);
        view.requestMeasure();
      },
    );
    editOnClick(view, element);
    return element;
  }

  override get estimatedHeight(): number {
    return 200;
  }
}

export class TableWidget extends WidgetType {
  /** `source`: the table's lines, whole. */
  constructor(readonly source: string) {
    super();
  }

  override eq(other: TableWidget): boolean {
    return other.source === this.source;
  }

  toDOM(view: EditorView): HTMLElement {
    const wrap = document.createElement('div');
    wrap.className = 'cm-lp-table';
    const model: TableModel = tableFromSource(this.source) ?? { align: [], header: [], rows: [] };
    const table = document.createElement('table');
    const row = (cells: TableModel['header'], tag: 'th' | 'td') => {
      const tr = document.createElement('tr');
      model.header.forEach((_, column) => {
        const cell = document.createElement(tag);
        const align = model.align[column];
        if (align) cell.style.textAlign = align;
        const content = cells[column];
        if (content !== undefined) {
          cell.dataset.offset = String(content.offset);
          renderInline(content.text, cell, (element, tex, display) => drawMath(element, tex, display, view));
        }
        tr.append(cell);
      });
      return tr;
    };
    const head = document.createElement('thead');
    head.append(row(model.header, 'th'));
    const body = document.createElement('tbody');
    for (const cells of model.rows) body.append(row(cells, 'td'));
    table.append(head, body);
    wrap.append(table);
    // A click in a cell puts the cursor at its text: the table shows its source, to be edited there.
    editOnClick(view, wrap, (event) => {
      const cell = (event.target as Element).closest<HTMLElement>('th, td');
      return Number(cell?.dataset.offset ?? 0);
    });
    return wrap;
  }

  override ignoreEvent(): boolean {
    return true;
  }
}

export class TaskWidget extends WidgetType {
  /** `offset`: where the `[` of the marker lies from the widget's start. */
  constructor(
    readonly checked: boolean,
    readonly offset: number,
  ) {
    super();
  }

  override eq(other: TaskWidget): boolean {
    return other.checked === this.checked && other.offset === this.offset;
  }

  toDOM(view: EditorView): HTMLElement {
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.className = 'cm-lp-task';
    box.checked = this.checked;
    box.setAttribute('aria-label', this.checked ? 'Done' : 'To do');
    box.addEventListener('mousedown', (event) => {
      event.preventDefault();
      const change = toggleTask(view.state.doc, view.posAtDOM(box) + this.offset);
      if (change !== null)
        view.dispatch({ changes: change, userEvent: 'input.toggle', annotations: isolateHistory.of('full') });
      // The keyboard stays with the note (Ctrl+Z takes the toggle back).
      view.focus();
    });
    // The toggle is the document's: the box shows what the text says, not its own click.
    box.addEventListener('click', (event) => event.preventDefault());
    return box;
  }

  override ignoreEvent(): boolean {
    return true;
  }
}

export class FootnoteWidget extends WidgetType {
  constructor(
    readonly label: string,
    readonly definition: boolean,
  ) {
    super();
  }

  override eq(other: FootnoteWidget): boolean {
    return other.label === this.label && other.definition === this.definition;
  }

  toDOM(): HTMLElement {
    const sup = document.createElement('sup');
    sup.className = this.definition ? 'cm-lp-fnlabel' : 'cm-lp-fnref';
    sup.textContent = this.label;
    return sup;
  }
}

export class CalloutTitleWidget extends WidgetType {
  /** `title`: shown after the icon when the callout has none of its own ('' otherwise). */
  constructor(
    readonly style: CalloutStyle,
    readonly title: string,
  ) {
    super();
  }

  override eq(other: CalloutTitleWidget): boolean {
    return other.style === this.style && other.title === this.title;
  }

  toDOM(): HTMLElement {
    const head = document.createElement('span');
    head.className = 'cm-lp-callout-icon';
    head.textContent = this.style.icon;
    if (this.title === '') return head;
    const wrap = document.createElement('span');
    const title = document.createElement('span');
    title.className = 'cm-lp-callout-title';
    title.textContent = this.title;
    wrap.append(head, title);
    return wrap;
  }
}
