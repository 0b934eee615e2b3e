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
  readonly kind: 'map' | 'exclude';
  readonly pattern: RegExp;
  /** What a mapped name resolves as instead (an address or another name). */
  readonly replacement: string;
}

/**
 * Parses `MAP <pattern> <replacement>` and `EXCLUDE <pattern>` rules (patterns are globs with
 * `*`); anything else in the list is ignored. A replacement with a port (`MAP a b:8080`) is
 * not supported: the name then resolves to nothing, so it is refused rather than looked up.
 */
export function parseHostRules(text: string): readonly Rule[] {
  const rules: Rule[] = [];
  for (const part of text.split(',')) {
    const words = part.trim().split(/\s+/);
    const verb = words[0]!.toUpperCase();
    const glob = (words[1] ?? '')
      .toLowerCase()
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*');
    const pattern = new RegExp(`^${glob}$`);
    if (verb === 'MAP' && words.length === 3) {
      rules.push({ kind: 'map', pattern, replacement: words[2]!.toLowerCase() });
    } else if (verb === 'EXCLUDE' && words.length === 2) {
      rules.push({ kind: 'exclude', pattern, replacement: '' });
    }
  }
  return rules;
}

/** The name `host` resolves as under `rules`: Chromium's order, exclusions first, then the first map. */
export function mappedHost(rules: readonly Rule[], host: string): string {
  const name = host.toLowerCase();
  if (rules.some((r) => r.kind === 'exclude' && r.pattern.test(name))) return name;
  return rules.find((r) => r.kind === 'map' && r.pattern.test(name))?.replacement ?? name;
}

export function systemResolver(hostRules = ''): Resolver {
  const rules = parseHostRules(hostRules);
  return {
    async resolve(host) {
      const name = mappedHost(rules, host).replace(/^\[|\]$/g, '');
      if (isIP(name)) return [name];
      const found = await lookup(name, { all: true, verbatim: true });
      return found.map((a) => a.address);
    },
  };
}
