import type { IncomingMessage } from 'node:http';

/** The labels this host hands out to pages (`main`, `w-2`, …). */
const WINDOW_LABEL = /^(main|w-[1-9][0-9]{0,8})$/;

/**
 * The window label a reloading page asks for in `/ws?window=`, or null when it
 * asks for none or for something that is not a label (it then gets a window
 * anyway: the label is a wish, never a reason to refuse the page).
 */
export function requestedWindow(request: Pick<IncomingMessage, 'url'>): string | null {
  const label = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('window');
  return label !== null && WINDOW_LABEL.test(label) ? label : null;
}
