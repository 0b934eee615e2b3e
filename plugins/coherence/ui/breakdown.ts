/// <reference lib="dom" />
/*
 * The coherence breakdown panel's browser half (ADR 20), bundled on its own to
 * ui/dist/breakdown.js by `npm run build`. It runs in the editor's page, so it
 * builds its DOM from text only and reaches the host through `api` alone.
 */
import type { PanelApi } from '@vmark/sdk';
import type { BreakdownEdge, BreakdownView } from '../src/panel/breakdown-panel.js';
import type { PanelProgress } from '../src/panel/load-progress.js';

/** How often the page asks how far a load has come. */
const PROGRESS_POLL_MS = 400;

export function mount(root: HTMLElement, api: PanelApi): () => void {
  const summary = node('dl', 'coherence-summary');
  summary.style.cssText = 'display:grid;grid-template-columns:auto 1fr;gap:2px 12px;margin:0 0 8px';
  const edges = node('ul', 'coherence-edges');
  edges.style.cssText = 'list-style:none;margin:0;padding:0';
  const note = node('p', 'coherence-note');
  const refresh = node('button', 'button button-small coherence-refresh', 'Refresh');
  refresh.type = 'button';
  const heading = node('div', 'coherence-workspace');
  const bar = node('div', 'coherence-bar');
  bar.style.cssText = 'display:flex;align-items:center;gap:8px;margin-bottom:8px';
  heading.style.cssText = 'flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap';
  bar.append(heading, refresh);
  root.replaceChildren(bar, summary, edges, note);

  // Each load gets a number; an answer to an older one is dropped.
  let generation = 0;
  const load = async () => {
    const mine = ++generation;
    refresh.disabled = true;
    // A first index build of a large vault takes seconds: say how far it has come meanwhile.
    const poll = setInterval(() => {
      void api.request('progress').then(
        (progress) => {
          const p = progress as PanelProgress | null;
          if (mine === generation && p !== null) note.textContent = `Indexing: ${p.message}…`;
        },
        () => undefined,
      );
    }, PROGRESS_POLL_MS);
    try {
      const view = (await api.request('load')) as BreakdownView;
      if (mine === generation) show(view);
    } catch (error) {
      if (mine === generation) note.textContent = `Could not load: ${messageOf(error)}`;
    } finally {
      clearInterval(poll);
      if (mine === generation) refresh.disabled = false;
    }
  };

  const show = (view: BreakdownView) => {
    heading.textContent = view.workspace === null ? 'No workspace open' : baseName(view.workspace);
    heading.title = view.workspace ?? '';
    summary.replaceChildren(
      ...(view.objects === null ? [] : pair('Documents', view.objects)),
      ...(view.initialized ? pair('Stale', view.openItems) : []),
      ...(view.quarantined > 0 ? pair('Quarantined ledger lines', view.quarantined) : []),
    );
    edges.replaceChildren(...view.edges.map(edgeItem));
    note.textContent =
      view.workspace === null
        ? ''
        : !view.initialized
          ? 'No ledger yet: it starts with the first AI edit made from another document.'
          : view.edges.length === 0
            ? 'Nothing is stale.'
            : 'Read-only: resolving an edge is a person’s call, at a terminal (vmark coherence).';
  };

  refresh.addEventListener('click', () => void load());
  const unsubscribe = api.onRefresh(() => void load());
  void load();
  return () => {
    generation += 1;
    unsubscribe();
  };
}

function edgeItem(edge: BreakdownEdge): HTMLElement {
  const item = node('li', 'coherence-edge');
  item.dataset.state = edge.state;
  item.style.cssText = 'padding:6px 0;border-bottom:1px solid var(--rule)';
  const paths = node('div', 'coherence-edge-paths', `${edge.downstream} ← ${edge.upstream}`);
  paths.title = 'downstream ← upstream it was made from';
  const meta = node('div', 'coherence-edge-meta');
  meta.style.cssText = 'display:flex;gap:6px;margin-top:3px';
  meta.append(
    node('code', 'chip coherence-edge-state', edge.state),
    node('span', 'coherence-edge-confidence', `confidence ${edge.confidence}`),
  );
  item.append(paths, meta);
  return item;
}

function pair(term: string, value: number): HTMLElement[] {
  const count = node('dd', 'coherence-count', String(value));
  count.style.margin = '0';
  return [node('dt', 'coherence-term', term), count];
}

/** A new element with its class and text (never HTML: paths come from the workspace). */
function node<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

function baseName(folder: string): string {
  return folder.slice(folder.lastIndexOf('/') + 1) || folder;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
