/**
 * Which IP addresses a page may reach (DESIGN §9, vmark-notes §3): the public internet only.
 * Loopback, private, link-local, cloud-metadata, carrier-grade NAT, multicast, reserved and
 * unspecified ranges are refused, in IPv4 and IPv6, including IPv4 carried inside IPv6
 * (`::ffff:127.0.0.1`, NAT64, 6to4), so that no spelling of an address slips through.
 */
import { BlockList, isIP } from 'node:net';

export type AddressClass =
  'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'reserved' | 'multicast';

const RANGES: ReadonlyArray<readonly [AddressClass, string, number, 'ipv4' | 'ipv6']> = [
  ['metadata', '169.254.169.254', 32, 'ipv4'],
  ['metadata', '100.100.100.200', 32, 'ipv4'], // Alibaba Cloud
  ['metadata', 'fd00:ec2::254', 128, 'ipv6'], // AWS over IPv6
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
  ['reserved', '240.0.0.0', 4, 'ipv4'], // and 255.255.255.255
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', 'fc00::', 7, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['reserved', 'fec0::', 10, 'ipv6'], // site-local, deprecated
  ['reserved', '2001:db8::', 32, 'ipv6'],
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

/** The IPv4 address an IPv6 one carries (mapped, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::ffff:0:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const words = expandIpv6(lower);
  if (words === null) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  // ::ffff:a.b.c.d written in hex, and the IPv4-compatible ::a.b.c.d of old.
  if (words.slice(0, 5).every((w) => w === 0) && (words[5] === 0xffff || words[5] === 0)) {
    if (words[5] === 0 && words[6] === 0) return null; // ::, ::1
    return v4(words[6]!, words[7]!);
  }
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) {
    return v4(words[6]!, words[7]!);
  }
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!);
  return null;
}

function expandIpv6(address: string): number[] | null {
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const words = [...head, ...new Array<number>(Math.max(missing, 0)).fill(0), ...tail];
  return words.length === 8 && words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff)
    ? words
    : null;
}

/** What an IP address is, for the network guard; anything unparseable is `reserved`. */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const inner = embeddedIpv4(bare);
    if (inner !== null) return classifyAddress(inner);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const kind of ORDER) if (lists.get(kind)!.check(bare, type)) return kind;
  return 'public';
}
