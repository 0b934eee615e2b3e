/**
 * Where a URL the editor window is asked to load may go: `stay` for the UI's
 * own origin, `external` (the system browser) for web and mail links, and
 * `refuse` for anything else (`file:`, `javascript:`, custom schemes, garbage),
 * so the window only ever shows the host's page and the token stays in it.
 */
export type NavigationVerdict = 'stay' | 'external' | 'refuse';

const EXTERNAL_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

export function navigationVerdict(target: string, uiOrigin: string): NavigationVerdict {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'refuse';
  }
  if (url.origin === uiOrigin && url.protocol === 'http:') return 'stay';
  return EXTERNAL_PROTOCOLS.has(url.protocol) ? 'external' : 'refuse';
}
