/*
 * The label of this page's workbench window, kept in session storage: it is
 * per browser tab and survives a reload, so a reloaded page asks the host for
 * its window again. Below both the connection (which sends it) and the
 * window identity (which learns it).
 */
const WINDOW_KEY = 'vmark.windowLabel';

/** The `&window=` part of the WebSocket URL: the label this page had before a reload, if any. */
export function windowQuery(): string {
  const label = sessionStorage.getItem(WINDOW_KEY);
  return label === null ? '' : `&window=${encodeURIComponent(label)}`;
}

export function rememberWindowLabel(label: string): void {
  sessionStorage.setItem(WINDOW_KEY, label);
}
