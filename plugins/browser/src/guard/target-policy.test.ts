import { describe, expect, it } from 'vitest';
import { systemResolver, type Resolver } from './resolver.js';
import { checkHost, checkTarget } from './target-policy.js';

const OFF = { allowPrivateNetwork: false };
const ON = { allowPrivateNetwork: true };

/** A resolver that answers from a table, as a DNS server would, and counts what it was asked. */
function tableResolver(table: Record<string, readonly string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    resolve(host) {
      asked.push(host);
      const found = table[host];
      return found === undefined ? Promise.reject(new Error(`ENOTFOUND ${host}`)) : Promise.resolve(found);
    },
  };
}

const literals = systemResolver('');

describe('checkTarget', () => {
  it('lets http and https through to public addresses, with every address found', async () => {
    const dns = tableResolver({ 'example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] });
    expect(await checkTarget('https://example.com/a?b#c', dns, OFF)).toEqual({
      allowed: true,
      addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    });
    expect(await checkTarget('http://EXAMPLE.com./', dns, OFF)).toMatchObject({ allowed: true });
    expect(dns.asked).toEqual(['example.com', 'example.com']);
  });

  it.each([
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
    'javascript:alert(1)',
    'chrome://crash',
    'chrome://settings',
    'view-source:http://93.184.215.14/',
    'about:blank',
    'ftp://93.184.215.14/',
    'ws://93.184.215.14/',
    'blob:http://93.184.215.14/uuid',
    'filesystem:http://93.184.215.14/temporary/x',
  ])('refuses the scheme of %s, private networks allowed or not', async (url) => {
    for (const options of [OFF, ON]) {
      expect(await checkTarget(url, literals, options)).toMatchObject({
        allowed: false,
        kind: 'scheme',
        reason: expect.stringMatching(/^only http and https pages may be opened, not [a-z-]+:$/),
      });
    }
  });

  it.each(['not a url', 'http://', 'http://[::1/', 'https://exa mple.com/', ''])(
    'refuses the malformed %j',
    async (url) => {
      expect(await checkTarget(url, literals, ON)).toEqual({
        allowed: false,
        kind: 'malformed',
        reason: 'the URL is malformed',
      });
    },
  );

  it.each([
    ['http://127.0.0.1:8080/', 'loopback'],
    ['http://localhost/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', 'loopback'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://10.1.2.3/', 'private network'],
    ['http://192.168.1.1/', 'private network'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['http://[fe80::1]/', 'link-local'],
  ])('refuses %s with private networks off (%s)', async (url, words) => {
    const verdict = await checkTarget(url, literals, OFF);
    expect(verdict).toMatchObject({ allowed: false, kind: 'address' });
    expect(verdict.allowed ? '' : verdict.reason).toContain(words);
    expect(verdict.allowed ? '' : verdict.reason).toMatch(/browser\.allowPrivateNetwork/);
  });

  it('allows those with private networks on, and never another scheme', async () => {
    expect(await checkTarget('http://127.0.0.1:8080/', literals, ON)).toEqual({
      allowed: true,
      addresses: ['127.0.0.1'],
    });
    expect(await checkTarget('http://[::1]/', literals, ON)).toEqual({ allowed: true, addresses: ['::1'] });
    expect(await checkTarget('file:///etc/passwd', literals, ON)).toMatchObject({
      allowed: false,
      kind: 'scheme',
    });
  });

  it('checks every address a name has: one private address refuses the name', async () => {
    const dns = tableResolver({ 'mixed.test': ['93.184.215.14', '10.0.0.5'] });
    const verdict = await checkTarget('https://mixed.test/', dns, OFF);
    expect(verdict).toEqual({
      allowed: false,
      kind: 'address',
      reason:
        'mixed.test is a private network address (10.0.0.5); pages on this machine or a private network cannot be ' +
        'opened (the setting browser.allowPrivateNetwork allows them)',
    });
  });

  it('refuses a name that does not resolve, private networks allowed or not', async () => {
    const dns = tableResolver({ 'empty.test': [] });
    for (const options of [OFF, ON]) {
      expect(await checkTarget('http://nowhere.test/', dns, options)).toEqual({
        allowed: false,
        kind: 'unresolved',
        reason: 'the name nowhere.test could not be resolved',
      });
      expect(await checkTarget('http://empty.test/', dns, options)).toEqual({
        allowed: false,
        kind: 'unresolved',
        reason: 'the name empty.test has no address',
      });
    }
  });
});

describe('checkHost', () => {
  it('takes a bare host as the proxy sees it: brackets, a trailing dot and case do not matter', async () => {
    expect(await checkHost('[::1]', literals, OFF)).toMatchObject({ allowed: false, kind: 'address' });
    expect(await checkHost('LOCALHOST.', literals, OFF)).toMatchObject({ allowed: false, kind: 'address' });
    expect(await checkHost('', literals, OFF)).toEqual({
      allowed: false,
      kind: 'malformed',
      reason: 'the URL has no host',
    });
  });
});
