/// <reference lib="dom" />
/*
 * The Browser panel's browser half (ADR 56), bundled to ui/dist/new-tab-panel.js: an address
 * field that opens a browser tab of the person's own, for when no browser tab is open to hold
 * the "+" of its address bar. It reaches the host through `api` alone.
 */
import type { PanelApi } from '@vmark/sdk';

export function mount(root: HTMLElement, api: PanelApi): void {
  const form = document.createElement('form');
  form.className = 'bt-new-tab';
  form.style.cssText = 'display:flex;gap:6px;align-items:center';
  const address = document.createElement('input');
  address.type = 'text';
  address.className = 'input bt-new-tab-address';
  address.placeholder = 'Address';
  address.setAttribute('aria-label', 'Address of a new browser tab');
  address.style.cssText = 'flex:1;min-width:0';
  const open = document.createElement('button');
  open.type = 'submit';
  open.className = 'button button-small bt-new-tab-open';
  open.textContent = 'New browser tab';
  const note = document.createElement('p');
  note.className = 'bt-new-tab-note';
  note.style.cssText = 'margin:6px 0 0';
  form.append(address, open);
  root.replaceChildren(form, note);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const url = address.value.trim();
    if (url === '') return;
    open.disabled = true;
    note.textContent = '';
    api
      .request('open', { url })
      .then(
        () => {
          note.textContent = 'Opened as your own tab: pick it in the tab strip.';
          address.value = '';
        },
        (error: unknown) => {
          note.textContent = error instanceof Error ? error.message : String(error);
        },
      )
      .finally(() => (open.disabled = false));
  });
}
