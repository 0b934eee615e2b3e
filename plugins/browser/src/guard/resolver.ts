/**
 * Name resolution for the network guard. The guard resolves every name itself and connects
 * to the address it checked, so a name cannot resolve to a public address for the check and
 * a private one for the request (DNS rebinding). `hostRules` are Chromium's
 * `--host-resolver-rules` syntax (`MAP *.test 127.0.0.1, MAP a.example b.example`), which the
 * guard must honour itself since the browser's requests reach it by name (VMARK_BROWSER_HOST_RULES).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export interface Resolver {
  /** Every address `host` resolves to (an IP literal resolves to itself). */
  resolve(host: string): Promise<readonly string[]>;
}

interface Rule {
  readonly pattern: RegExp;
  readonly replacement: string;
}

/** Parses `MAP <pattern> <replacement>` rules; anything else in the list is ignored. */
export function parseHostRules(text: string): readonly Rule[] {
  const rules: Rule[] = [];
  for (const part of text.split(',')) {
    const words = part.trim().split(/\s+/);
    if (words.length !== 3 || words[0]!.toUpperCase() !== 'MAP') continue;
    const glob = words[1]!
      .toLowerCase()
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*');
    rules.push({ pattern: new RegExp(`^${glob}$`), replacement: words[2]!.toLowerCase() });
  }
  return rules;
}

export function systemResolver(hostRules = ''): Resolver {
  const rules = parseHostRules(hostRules);
  return {
    async resolve(host) {
      const name = rules.find((r) => r.pattern.test(host))?.replacement ?? host;
      if (isIP(name.replace(/^\[|\]$/g, ''))) return [name.replace(/^\[|\]$/g, '')];
      const found = await lookup(name, { all: true, verbatim: true });
      return found.map((a) => a.address);
    },
  };
}
