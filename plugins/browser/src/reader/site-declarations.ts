/**
 * The static half of the `siteExtractors` contract (vmark-notes §5.2), checked before a
 * contributing plugin's code runs: each declared extractor has an id, a non-empty list of
 * canonical origins that no plugin taking precedence already claims exactly, read as its one
 * capability, and an agent API this browser provides. Pure: it returns diagnostics.
 */
import type { ContributionDiagnostic, PeerDeclaration } from '@vmark/sdk';
import type { SiteExtractorDeclaration } from '@vmark/sdk/reader';

/** The agent API this browser offers site extractors (`minAgentApi` above it is refused). */
export const CURRENT_AGENT_API = 1;

const EXTRACTOR_ID = /^[a-z0-9-]+$/;
const CAPABILITIES = new Set(['read']);
/** `https://host`, `https://host:port`, `https://*.host`: lower case, no path, no trailing dot. */
const ORIGIN = /^(https?):\/\/(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*)(:\d{1,5})?$/;

/** The declarations of a `contributes.siteExtractors` entry, and what is wrong with them. */
export function checkSiteExtractors(
  declaration: unknown,
  peers: readonly PeerDeclaration[],
): ContributionDiagnostic[] {
  const problems: ContributionDiagnostic[] = [];
  const fail = (message: string) => problems.push({ severity: 'error', message });
  if (!Array.isArray(declaration) || declaration.length === 0) {
    fail('must be a non-empty array of site extractor declarations');
    return problems;
  }
  const claimed = new Map<string, string>();
  for (const peer of peers) {
    for (const entry of asDeclarations(peer.declaration))
      for (const origin of entry.origins) claimed.set(origin, peer.pluginId);
  }
  const ids = new Set<string>();
  const own = new Set<string>();
  for (const [index, raw] of declaration.entries()) {
    const entry = raw as Partial<Record<keyof SiteExtractorDeclaration, unknown>>;
    const where = typeof entry?.id === 'string' ? `extractor "${entry.id}"` : `extractor ${index}`;
    if (typeof entry !== 'object' || entry === null) {
      fail(`${where} must be an object`);
      continue;
    }
    if (typeof entry.id !== 'string' || !EXTRACTOR_ID.test(entry.id))
      fail(`${where}: id must match ${String(EXTRACTOR_ID)}`);
    else if (ids.has(entry.id)) fail(`${where} is declared twice`);
    else ids.add(entry.id);
    if (entry.nameI18nKey !== undefined && typeof entry.nameI18nKey !== 'string')
      fail(`${where}: nameI18nKey must be a string`);
    checkOrigins(entry.origins, where, own, claimed, fail);
    if (
      !Array.isArray(entry.capabilities) ||
      entry.capabilities.length === 0 ||
      new Set(entry.capabilities).size !== entry.capabilities.length ||
      !entry.capabilities.every((c) => CAPABILITIES.has(c as string))
    ) {
      fail(
        `${where}: capabilities must be a non-empty list of distinct values from: ${[...CAPABILITIES].join(', ')}`,
      );
    }
    if (
      typeof entry.minAgentApi !== 'number' ||
      !Number.isInteger(entry.minAgentApi) ||
      entry.minAgentApi < 1
    )
      fail(`${where}: minAgentApi must be a positive integer`);
    else if (entry.minAgentApi > CURRENT_AGENT_API)
      fail(`${where} needs agent API ${entry.minAgentApi}; this browser offers ${CURRENT_AGENT_API}`);
  }
  return problems;
}

function checkOrigins(
  origins: unknown,
  where: string,
  own: Set<string>,
  claimed: ReadonlyMap<string, string>,
  fail: (message: string) => void,
): void {
  if (!Array.isArray(origins) || origins.length === 0) {
    fail(`${where}: origins must be a non-empty list`);
    return;
  }
  for (const origin of origins) {
    if (typeof origin !== 'string' || canonicalOrigin(origin) !== origin) {
      const canonical = typeof origin === 'string' ? canonicalOrigin(origin) : null;
      fail(
        `${where}: origin ${JSON.stringify(origin)} is not canonical` +
          (canonical ? ` (write "${canonical}")` : ' (write "https://host" or "https://*.host")'),
      );
    } else if (own.has(origin)) fail(`${where}: origin "${origin}" is listed twice`);
    else if (claimed.has(origin))
      fail(`${where}: origin "${origin}" is already claimed by plugin "${claimed.get(origin)}"`);
    else own.add(origin);
  }
}

/** The canonical spelling of an origin pattern, or null when it is none. */
export function canonicalOrigin(text: string): string | null {
  const wildcard = /^(https?:\/\/)\*\./i.exec(text);
  let url: URL;
  try {
    url = new URL(wildcard ? text.replace('*.', 'wildcard.') : text);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password) return null;
  if (url.pathname !== '/' || url.search || url.hash || /\/.+|[?#]/.test(text.replace(/^https?:\/\//i, '')))
    return null;
  const host = wildcard ? url.host.replace(/^wildcard\./, '*.') : url.host;
  const origin = `${url.protocol}//${host.replace(/\.$/, '')}`;
  return ORIGIN.test(origin) ? origin : null;
}

/** The declarations of a checked entry (a valid one: see `checkSiteExtractors`). */
export function asDeclarations(declaration: unknown): SiteExtractorDeclaration[] {
  if (!Array.isArray(declaration)) return [];
  return declaration.filter(
    (entry): entry is SiteExtractorDeclaration =>
      typeof entry === 'object' &&
      entry !== null &&
      Array.isArray((entry as SiteExtractorDeclaration).origins),
  );
}
