/**
 * The network guard for a remote browser (`VMARK_BROWSER_ENDPOINT`), which no proxy of ours
 * stands in front of: every request the browser makes is paused by CDP's `Fetch` domain on the
 * browser target — main frames, every frame (cross-site ones in their own processes too),
 * sub-resources, workers, and each redirect hop, which Playwright's `route` never sees (it
 * intercepts only the first request of a redirect chain, by design) — and goes on only once its
 * host's every address has been checked. A refused request fails as blocked by the client.
 *
 * What it cannot check: WebSocket handshakes (CDP offers no interception of them), and a name
 * the remote browser resolves differently from this host (it connects by its own DNS). The
 * guard applies to the whole remote browser, so vmark should be given a browser of its own.
 */
import type { Browser, CDPSession } from 'playwright-core';
import type { Refusal } from './guard-proxy.js';
import type { Resolver } from './resolver.js';
import { checkHost, type TargetOptions, type TargetVerdict } from './target-policy.js';

export interface RemoteGuardOptions {
  readonly resolver: Resolver;
  /** Read for every request, so a change of the setting applies at once. */
  readonly policy: () => TargetOptions;
  readonly onRefused: (refusal: Refusal) => void;
}

interface PausedRequest {
  readonly requestId: string;
  readonly request: { readonly url: string };
}

export async function guardRemoteBrowser(browser: Browser, options: RemoteGuardOptions): Promise<CDPSession> {
  const session = await browser.newBrowserCDPSession();
  session.on('Fetch.requestPaused', (event: PausedRequest) => void vet(session, event, options));
  await session.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
  return session;
}

async function vet(session: CDPSession, event: PausedRequest, options: RemoteGuardOptions): Promise<void> {
  const target = event.request.url;
  const verdict = await verdictFor(target, options);
  try {
    if (verdict.allowed) {
      await session.send('Fetch.continueRequest', { requestId: event.requestId });
      return;
    }
    options.onRefused({ target, reason: verdict.reason });
    await session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' });
  } catch {
    // The request or the session went away meanwhile: nothing is left to decide.
  }
}

/**
 * Addresses are checked for http(s); the browser's own rules govern its other schemes (a web
 * page can reach neither `file:` nor `chrome:`), as they do behind the local proxy. A guard that
 * cannot decide refuses.
 */
async function verdictFor(target: string, options: RemoteGuardOptions): Promise<TargetVerdict> {
  try {
    const url = new URL(target);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { allowed: true, addresses: [] };
    return await checkHost(url.hostname, options.resolver, options.policy());
  } catch {
    return { allowed: false, kind: 'malformed', reason: 'the network guard could not check this request' };
  }
}
