/**
 * A web origin as standing grants are keyed and shown (vmark-notes §3.1, §3.3): `scheme://host[:port]`,
 * http(s) only, scheme and host lower-cased, an IDN host in punycode, the default port dropped and
 * a trailing host dot stripped — so `HTTPS://Bücher.Example.:443` and `https://xn--bcher-kva.example`
 * are one origin, and one grant. The WHATWG URL parser does the work; what it cannot make into an
 * http(s) origin with a host is no origin (`undefined`): nothing can be granted on it.
 */
export function canonicalOrigin(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // Only an origin (a trailing `/` allowed): a path, query, fragment or userinfo makes it a URL.
  const extra = url.username + url.password + url.search + url.hash;
  if (extra !== '' || raw.endsWith('#') || raw.endsWith('?') || url.pathname !== '/') return undefined;
  const host = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  if (host === '' || host.split('.').some((label) => label === '')) return undefined;
  return `${url.protocol}//${host}${url.port === '' ? '' : `:${url.port}`}`;
}
