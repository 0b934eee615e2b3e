import { describe, expect, it } from 'vitest';
import { type AddressClass, classifyAddress } from './address-policy.js';

const cases: ReadonlyArray<readonly [AddressClass, readonly string[]]> = [
  [
    'public',
    [
      '93.184.215.14',
      '8.8.8.8',
      '1.1.1.1',
      '172.15.255.255',
      '172.32.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '192.167.255.255',
      '223.255.255.255',
      '2606:4700:4700::1111',
      '2a00:1450:4001:82a::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ],
  ],
  ['loopback', ['127.0.0.1', '127.255.255.254', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1']],
  ['unspecified', ['0.0.0.0', '0.1.2.3', '::', '0:0:0:0:0:0:0:0']],
  [
    'private',
    [
      '10.0.0.1',
      '10.255.255.255',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '192.168.255.255',
      '100.64.0.1', // carrier-grade NAT
      '100.127.255.255',
      'fc00::1',
      'fd12:3456:789a::1',
      '64:ff9b:1::a00:1', // NAT64 for a local network
    ],
  ],
  ['link-local', ['169.254.0.1', '169.254.255.255', 'fe80::1', 'febf::1', 'fe80::1%eth0', '[fe80::1%25en0]']],
  [
    'metadata',
    ['169.254.169.254', '100.100.100.200', 'fd00:ec2::254', 'fd20:ce::254', '::ffff:169.254.169.254'],
  ],
  ['multicast', ['224.0.0.1', '239.255.255.250', 'ff02::1', 'ff05::2']],
  [
    'reserved',
    [
      '192.0.0.1',
      '192.0.2.1',
      '198.18.0.1',
      '198.19.255.255',
      '198.51.100.7',
      '203.0.113.9',
      '192.88.99.1',
      '240.0.0.1',
      '255.255.255.255',
      'fec0::1',
      '2001:db8::1',
      '100::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
      'not-an-address',
      '',
      '999.1.1.1',
      '1.2.3',
    ],
  ],
];

describe('classifyAddress', () => {
  for (const [kind, addresses] of cases) {
    it(`${kind}: ${addresses.join(', ')}`, () => {
      for (const address of addresses) expect([address, classifyAddress(address)]).toEqual([address, kind]);
    });
  }

  it('sees the IPv4 address inside every IPv6 form that carries one', () => {
    const loopback = [
      '::ffff:127.0.0.1', // IPv4-mapped, dotted
      '::ffff:7f00:1', // the same in hex, as the URL parser writes it
      '0:0:0:0:0:ffff:127.0.0.1',
      '0000:0000:0000:0000:0000:FFFF:7F00:0001',
      '[::ffff:127.0.0.1]',
      '::ffff:0:127.0.0.1', // IPv4-translated
      '::127.0.0.1', // IPv4-compatible, deprecated
      '::7f00:1',
      '64:ff9b::127.0.0.1', // NAT64
      '64:ff9b::7f00:1',
      '2002:7f00:1::', // 6to4
      '2002:7f00:0001:1234::5',
    ];
    for (const address of loopback)
      expect([address, classifyAddress(address)]).toEqual([address, 'loopback']);
    expect(classifyAddress('::ffff:10.0.0.1')).toBe('private');
    expect(classifyAddress('64:ff9b::192.168.1.1')).toBe('private');
    expect(classifyAddress('2002:a9fe:a9fe::')).toBe('metadata');
    expect(classifyAddress('::ffff:0.0.0.0')).toBe('unspecified');
    expect(classifyAddress('::2')).toBe('unspecified'); // ::/96 carries 0.0.0.2
  });
});
