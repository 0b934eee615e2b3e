import type { TestHost } from '@vmark/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_HINTS, type GateKind } from '../src/gates/classify-gate.js';
import { startBrowserHost } from './browser-rig.js';
import { type PageServer, startPageServer } from './page-server.js';

/*
 * Gate detection on real pages in a real Chromium (vmark-notes §5.1): each gate kind, and the
 * near misses that must not be classified. Fixture pages are served on 127.0.0.1, so private
 * networks are allowed for this file.
 */
process.env.VMARK_BROWSER_ALLOW_PRIVATE = '1';

let kit: TestHost;
let pages: PageServer;

beforeAll(async () => {
  pages = await startPageServer();
  const served: Record<string, string> = {
    '/gates/challenge-widget': 'gates/challenge-widget.html',
    '/gates/challenge-text': 'gates/challenge-text.html',
    '/gates/challenge-shadow': 'gates/challenge-shadow.html',
    '/gates/challenge-text-shadow': 'gates/challenge-text-shadow.html',
    '/gates/challenge-poisoned': 'gates/challenge-poisoned.html',
    '/consent/': 'gates/consent.html',
    '/account/login': 'gates/login.html',
    '/gates/login-shadow/sign-in': 'gates/login-shadow.html',
    '/gates/rate-limited': 'gates/rate-limited.html',
    '/gates/shop-429': 'gates/shop-429.html',
    '/gates/cloudflare-footer': 'gates/cloudflare-footer.html',
    '/gates/captcha-article': 'gates/captcha-article.html',
    '/hidden/login': 'gates/hidden-password.html',
    '/gates/just-a-moment-long': 'gates/just-a-moment-long.html',
    // The consent page somewhere that is not a consent place: its words alone are no gate.
    '/gates/consent-words': 'gates/consent.html',
  };
  for (const [path, file] of Object.entries(served)) pages.fixture(path, file);
  kit = await startBrowserHost();
});
afterAll(async () => {
  await kit?.dispose();
  await pages?.close();
});

async function open(path: string): Promise<Record<string, unknown>> {
  const result = await kit.call('browser', { action: 'open', url: `${pages.origin}${path}` });
  expect(result.isError, result.text).toBe(false);
  const data = result.data as Record<string, unknown>;
  await kit.call('browser', { action: 'close', tabId: data.tabId });
  return data;
}

describe('gate detection after a loaded open', () => {
  it.each<[string, GateKind]>([
    ['/gates/challenge-widget', 'challenge'],
    ['/gates/challenge-text', 'challenge'],
    ['/gates/challenge-shadow', 'challenge'],
    ['/gates/challenge-text-shadow', 'challenge'],
    ['/gates/challenge-poisoned', 'challenge'],
    ['/consent/', 'consent'],
    ['/account/login', 'login-required'],
    ['/gates/login-shadow/sign-in', 'login-required'],
    ['/gates/rate-limited', 'rate-limited'],
  ])('%s is %s, with the verbatim hint', async (path, kind) => {
    const result = await open(path);
    expect(result.gate).toEqual({ kind, hint: GATE_HINTS[kind] });
    // Advisory only: the rest of the result is what it would have been.
    expect(result).toMatchObject({ tabId: expect.stringMatching(/^tab-\d+$/), status: 200, generation: 1 });
  });

  it.each([
    ['a shop page showing "$429"', '/gates/shop-429'],
    ['a "Protected by Cloudflare" footer, with widgets that are not rendered', '/gates/cloudflare-footer'],
    ['an article about CAPTCHAs', '/gates/captcha-article'],
    ['a login page whose password fields are all hidden', '/hidden/login'],
    ['a long page titled "Just a moment"', '/gates/just-a-moment-long'],
    ['consent words away from a consent page', '/gates/consent-words'],
  ])('is no gate: %s', async (_what, path) => {
    const result = await open(path);
    expect(result).not.toHaveProperty('gate');
    expect(result).toMatchObject({ status: 200 });
  });
});

describe('gate detection after navigate and wait', () => {
  it('runs after a navigate, and after a wait that picks up a slow page', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    pages.route('/slow/login', (_req, res) => {
      void released.then(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<title>Log in</title><input type="password">');
      });
    });
    const opened = await kit.call('browser', { action: 'open', url: `${pages.origin}/gates/shop-429` });
    const { tabId } = opened.data as { tabId: string };
    const navigated = await kit.call('browser', {
      action: 'navigate',
      tabId,
      url: `${pages.origin}/gates/rate-limited`,
    });
    expect(navigated.data).toMatchObject({ gate: { kind: 'rate-limited' } });

    const slow = await kit.call('browser', {
      action: 'navigate',
      tabId,
      url: `${pages.origin}/slow/login`,
      timeoutMs: 50,
    });
    expect(slow.data).toMatchObject({ error: 'TIMEOUT', navigationId: 'nav-3' });
    release();
    const waited = await kit.call('browser_read', { action: 'wait', tabId, navigationId: 'nav-3' });
    expect(waited.data).toMatchObject({
      navigationId: 'nav-3',
      title: 'Log in',
      gate: { kind: 'login-required' },
    });
    await kit.call('browser', { action: 'close', tabId });
  });

  it('never holds the result up, even when the page’s main thread never comes back', async () => {
    pages.html(
      '/gates/hung',
      '<title>Just a moment...</title><p>Verify you are human</p>' +
        // After load, the page's only thread spins for ever: nothing can be read from it.
        '<script>addEventListener("load", () => setTimeout(() => { for (;;) {} }, 0));</script>',
    );
    const result = await kit.call('browser', { action: 'open', url: `${pages.origin}/gates/hung` });
    expect(result.isError, result.text).toBe(false);
    expect(result.data).toMatchObject({ status: 200 });
    const { tabId } = result.data as { tabId: string };
    expect((await kit.call('browser', { action: 'close', tabId })).data).toEqual({
      tabId,
      closed: true,
      destroyed: true,
    });
  });
});
