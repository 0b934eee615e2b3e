import { describe, expect, it } from 'vitest';
import { mappedHost, parseHostRules, systemResolver } from './resolver.js';

describe('VMARK_BROWSER_HOST_RULES', () => {
  it("maps names as Chromium's --host-resolver-rules do: globs, first match, exclusions first", () => {
    const rules = parseHostRules(
      'MAP evil.test 127.0.0.1, MAP *.corp.test 10.0.0.7 ,EXCLUDE safe.corp.test, MAP * ~NOTFOUND',
    );
    expect(mappedHost(rules, 'evil.test')).toBe('127.0.0.1');
    expect(mappedHost(rules, 'EVIL.test')).toBe('127.0.0.1');
    expect(mappedHost(rules, 'a.corp.test')).toBe('10.0.0.7');
    expect(mappedHost(rules, 'a.b.corp.test')).toBe('10.0.0.7');
    expect(mappedHost(rules, 'safe.corp.test')).toBe('safe.corp.test');
    expect(mappedHost(rules, 'other.example')).toBe('~notfound');
  });

  it('takes a dot as a dot and anchors the pattern', () => {
    const rules = parseHostRules('MAP a.test 127.0.0.1');
    expect(mappedHost(rules, 'aXtest')).toBe('axtest');
    expect(mappedHost(rules, 'xa.test')).toBe('xa.test');
    expect(mappedHost(rules, 'a.test.example')).toBe('a.test.example');
  });

  it('ignores what it cannot read', () => {
    expect(parseHostRules('')).toEqual([]);
    expect(parseHostRules('MAP onlyone, REWRITE a b, MAP a b c, EXCLUDE')).toEqual([]);
  });

  it('resolves a mapped name to the mapped address, and an IP literal to itself, without DNS', async () => {
    const resolver = systemResolver(
      'MAP evil.test 127.0.0.1, MAP six.test [::1], MAP ported.test 127.0.0.1:8080',
    );
    expect(await resolver.resolve('evil.test')).toEqual(['127.0.0.1']);
    expect(await resolver.resolve('six.test')).toEqual(['::1']);
    expect(await resolver.resolve('93.184.215.14')).toEqual(['93.184.215.14']);
    expect(await resolver.resolve('::ffff:127.0.0.1')).toEqual(['::ffff:127.0.0.1']);
    // A port in a replacement is not supported: the name resolves to nothing, so it is refused.
    await expect(resolver.resolve('ported.test')).rejects.toThrow();
  });

  it('resolves other names through the system resolver', async () => {
    expect(await systemResolver('').resolve('localhost')).toEqual(expect.arrayContaining(['127.0.0.1']));
    await expect(systemResolver('MAP * ~NOTFOUND').resolve('anything.example')).rejects.toThrow();
  });
});
