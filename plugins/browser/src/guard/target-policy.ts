/**
 * Whether a page may go to a URL (DESIGN §9): http(s) only, and only to public addresses,
 * checked by the addresses the name resolves to — every one of them — not by the name. With
 * `browser.allowPrivateNetwork` on, any address is allowed, never another scheme.
 */
import { type AddressClass, classifyAddress } from './address-policy.js';
import type { Resolver } from './resolver.js';

export type TargetVerdict =
  | { readonly allowed: true; readonly addresses: readonly string[] }
  | {
      readonly allowed: false;
      readonly reason: string;
      readonly kind: 'scheme' | 'address' | 'malformed' | 'unresolved';
    };

const ADDRESS_WORDS: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'a loopback address (this machine)',
  private: 'a private network address',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata address',
  unspecified: 'an unspecified address',
  reserved: 'a reserved address',
  multicast: 'a multicast address',
};

export interface TargetOptions {
  readonly allowPrivateNetwork: boolean;
}

/** Checks the scheme and, for a URL with a host, every address it resolves to. */
export async function checkTarget(
  raw: string,
  resolver: Resolver,
  options: TargetOptions,
): Promise<TargetVerdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { allowed: false, kind: 'malformed', reason: 'the URL is malformed' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      allowed: false,
      kind: 'scheme',
      reason: `only http and https pages may be opened, not ${url.protocol}`,
    };
  }
  return checkHost(url.hostname, resolver, options);
}

/** The address half of `checkTarget`, for a host the proxy is asked to reach. */
export async function checkHost(
  hostname: string,
  resolver: Resolver,
  options: TargetOptions,
): Promise<TargetVerdict> {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === '') return { allowed: false, kind: 'malformed', reason: 'the URL has no host' };
  let addresses: readonly string[];
  try {
    addresses = await resolver.resolve(host);
  } catch {
    return { allowed: false, kind: 'unresolved', reason: `the name ${host} could not be resolved` };
  }
  if (addresses.length === 0)
    return { allowed: false, kind: 'unresolved', reason: `the name ${host} has no address` };
  if (options.allowPrivateNetwork) return { allowed: true, addresses };
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind !== 'public') {
      return {
        allowed: false,
        kind: 'address',
        reason:
          `${host} is ${ADDRESS_WORDS[kind]}${address === host ? '' : ` (${address})`}; pages on this machine or ` +
          'a private network cannot be opened (the setting browser.allowPrivateNetwork allows them)',
      };
    }
  }
  return { allowed: true, addresses };
}
