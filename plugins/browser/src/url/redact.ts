/**
 * What an AI client is shown of a URL (vmark-notes §3.3): never userinfo, a query or a fragment,
 * where tokens and session ids live. Every URL that reaches a client — results, errors,
 * `session.get_state` — goes through `urlForAgent`; an approval that is asked before a page
 * is authorized shows only the origin.
 */

const KEEP_OPAQUE = new Set(['about:blank', 'about:srcdoc']);

/** The URL without userinfo, query and fragment; opaque origins as `<scheme>(opaque)`. */
export function urlForAgent(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '(unparseable url)';
  }
  if (KEEP_OPAQUE.has(url.href)) return url.href;
  if (url.origin === 'null') return `${url.protocol.replace(/:$/, '')}(opaque)`;
  return `${url.origin}${url.pathname}`;
}

/** The origin alone; opaque origins as `<scheme>(opaque)`. */
export function originForAgent(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '(unknown origin)';
  }
  if (url.origin === 'null') return `${url.protocol.replace(/:$/, '')}(opaque)`;
  return url.origin;
}

const CREDENTIAL_SEGMENT =
  /(^|\/)(reset|reset-password|magic|magic-link|magic-login|token|verify|confirm|invite|activate|auth|callback|sso)(\/|$)/i;
/** A long segment mixing letters and digits: a token, not a name. */
const TOKEN_SEGMENT = /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_-]{20,}$/;

/** Whether a path may carry a credential (a reset link, a magic-login token). */
export function credentialPath(pathname: string): boolean {
  if (CREDENTIAL_SEGMENT.test(pathname)) return true;
  return pathname.split('/').some((segment) => TOKEN_SEGMENT.test(segment));
}
