/// <reference lib="dom" />
/*
 * The browser half of the Outline and Backlinks panels (ADR 20, 76), bundled to
 * ui/dist/links-panel.js: both declare this one module, and each mount draws what its own
 * provider loads — rows of text, each opening a file at a place. Built from text only (what a
 * note says never becomes markup). It loads again when the window shows another tab and when
 * the host says something changed (the person typing, a note changed on disk).
 */
import type { PanelApi } from '@vmark/sdk';
import type { LinksPanelView } from '../src/links/link-panels.js';

export function mount(root: HTMLElement, api: PanelApi): () => void {
  const list = document.createElement('ul');
  list.className = 'links-panel';
  list.style.cssText = 'list-style:none;margin:0;padding:0';
  const note = document.createElement('p');
  note.className = 'links-panel-note';
  root.replaceChildren(list, note);

  const show = (view: LinksPanelView) => {
    list.replaceChildren(...view.rows.map((row) => rowOf(row, api)));
    note.textContent = view.note ?? '';
    note.hidden = view.note === null;
  };

  // Each load gets a number; an answer to an older one is dropped.
  let generation = 0;
  const load = () => {
    const mine = ++generation;
    const tabId = api.activeTab()?.id ?? null;
    api.request('load', { tabId }).then(
      (view) => {
        if (mine === generation) show(view as LinksPanelView);
      },
      (error: unknown) => {
        if (mine !== generation) return;
        note.textContent = `Could not load: ${error instanceof Error ? error.message : String(error)}`;
        note.hidden = false;
      },
    );
  };
  const stops = [api.onRefresh(load), api.onActiveTab(load)];
  load();
  return () => {
    generation++;
    for (const stop of stops) stop();
  };
}

function rowOf(row: LinksPanelView['rows'][number], api: PanelApi): HTMLLIElement {
  const item = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'links-panel-item';
  button.title = row.title;
  button.style.cssText = `display:block;width:100%;text-align:left;border:0;background:none;padding:3px 4px 3px ${4 + 14 * row.indent}px;cursor:pointer;font:inherit;color:inherit`;
  const text = document.createElement('span');
  text.className = 'links-panel-text';
  text.textContent = row.text;
  button.append(text);
  if (row.detail !== null) {
    const detail = document.createElement('span');
    detail.className = 'links-panel-detail';
    detail.style.cssText =
      'display:block;font-size:0.85em;opacity:0.75;white-space:nowrap;overflow:hidden;text-overflow:ellipsis';
    detail.textContent = row.detail;
    button.append(detail);
  }
  const { path, place } = row;
  button.disabled = path === null;
  if (path !== null) button.addEventListener('click', () => void api.open(path, place));
  item.append(button);
  return item;
}
