/**
 * Playwright's Chromium, imported with the first browser a tab needs rather than with the
 * plugin: playwright-core is about 7 MB of JavaScript, most sessions never open a tab, and
 * every AI session starts a host.
 */
import type { BrowserType } from 'playwright-core';
import { TokenError } from '@vmark/sdk';

let loading: Promise<BrowserType> | undefined;

/** @throws TokenError `BROWSER_UNAVAILABLE` when playwright-core cannot be loaded (then the next call tries again). */
export function playwrightChromium(): Promise<BrowserType> {
  loading ??= import('playwright-core').then(
    (playwright) => playwright.chromium,
    (error: unknown) => {
      loading = undefined;
      throw new TokenError(
        'BROWSER_UNAVAILABLE',
        `the browser driver (playwright-core) could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
      );
    },
  );
  return loading;
}
