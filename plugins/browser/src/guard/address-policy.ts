/**
 * Which IP addresses a page may reach (DESIGN §9, vmark-notes §3): the public internet only.
 * Loopback, private, link-local, cloud-metadata, carrier-grade NAT, multicast, reserved and
 * unspecified ranges are refused, in IPv4 and IPv6, including IPv4 carried inside IPv6
 * (`::ffff:127.0.0.1`, NAT64, 6to4), so that no spelling of an address slips through, and an
 * address that does not parse is refused as reserved.
 */
import { BlockList, isIP } from 'node:net';

export type AddressClass =
  'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'reserved' | 'multicast';

const RANGES: ReadonlyArray<readonly [AddressClass, string, number, 'ipv4' | 'ipv6']> = [
  ['metadata', '169.254.169.254', 32, 'ipv4'],
  ['metadata', '100.100.100.200', 32, 'ipv4'], // Alibaba Cloud
  ['metadata', 'fd00:ec2::254', 128, 'ipv6'], // AWS over IPv6
  ['metadata', 'fd20:ce::254', 128, 'ipv6'], // Google Cloud over IPv6
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['private', '100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '192.0.2.0', 24, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['reserved', '198.51.100.0', 24, 'ipv4'],
  ['reserved', '203.0.113.0', 24, 'ipv4'],
  ['reserved', '192.88.99.0', 24, 'ipv4'], // 6to4 relays, retired
  ['reserved', '240.0.0.0', 4, 'ipv4'], // and 255.255.255.255
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', 'fc00::', 7, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['reserved', 'fec0::', 10, 'ipv6'], // site-local, deprecated
  ['reserved', '2001:db8::', 32, 'ipv6'],
  ['reserved', '2001::', 32, 'ipv6'], // Teredo: an address behind someone's NAT, never a site
  ['private', '64:ff9b:1::', 48, 'ipv6'], // NAT64 for a local network (RFC 8215)
  ['reserved', '100::', 64, 'ipv6'], // discard
  ['multicast', 'ff00::', 8, 'ipv6'],
];

const lists = new Map<AddressClass, BlockList>();
for (const [kind, network, prefix, family] of RANGES) {
  let list = lists.get(kind);
  if (!list) lists.set(kind, (list = new BlockList()));
  list.addSubnet(network, prefix, family);
}
/** In the order a refusal names them: the most specific first. */
const ORDER: readonly AddressClass[] = [
  'metadata',
  'loopback',
  'unspecified',
  'private',
  'link-local',
  'multicast',
  'reserved',
];

/**
 * The IPv4 address an IPv6 one carries, if any: IPv4-mapped (`::ffff:a.b.c.d`, in dotted or
 * hex form), IPv4-translated (`::ffff:0:a.b.c.d`), the IPv4-compatible `::a.b.c.d` of old,
 * NAT64 (`64:ff9b::a.b.c.d`) and 6to4 (`2002:AABB:CCDD::`). Each reaches that IPv4 address.
 */
function embeddedIpv4(words: readonly number[]): string | null {
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zeros(0, 5) && (words[5] === 0xffff || words[5] === 0)) {
    if (words[5] === 0 && words[6] === 0 && words[7]! <= 1) return null; // ::, ::1
    return v4(words[6]!, words[7]!);
  }
  if (zeros(0, 4) && words[4] === 0xffff && words[5] === 0) return v4(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return v4(words[6]!, words[7]!);
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!);
  return null;
}

/** The eight 16-bit words of an IPv6 address (a dotted IPv4 tail counts as two), or null. */
function ipv6Words(address: string): number[] | null {
  let text = address;
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    if (isIP(dotted[2]!) !== 4) return null;
    const [a, b, c, d] = dotted[2]!.split('.').map(Number) as [number, number, number, number];
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const parts = [...head, ...new Array<string>(Math.max(missing, 0)).fill('0'), ...tail];
  if (!parts.every((part) => /^[0-9a-f]{1,4}$/i.test(part))) return null;
  return parts.map((part) => parseInt(part, 16));
}

/** What an IP address is, for the network guard; anything unparseable is `reserved`. */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const words = ipv6Words(bare);
    if (words === null) return 'reserved';
    const inner = embeddedIpv4(words);
    if (inner !== null) return classifyAddress(inner);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const kind of ORDER) if (lists.get(kind)!.check(bare, type)) return kind;
  return 'public';
}
