/**
 * Closing a tab's page. Chromium can answer a `Target.closeTarget` that races a navigation's
 * commit with success and then drop it (crbug.com/536385539): the page stays, and Playwright's
 * `page.close()`, which waits for the page to go, waits for ever. So while the page is still
 * there, the close is asked again straight over CDP; asking a closing target again does nothing.
 */
import type { Page } from 'playwright-core';
import { TIMED_OUT, within } from '../time-bound.js';

/** How long one request waits for the page to go before the close is asked again. */
const ASK_AGAIN_MS = 1000;

/**
 * Closes `page`: undefined once it is gone, the browser's refusal as an Error, or TIMED_OUT when
 * it is still there after `deadlineMs` (the close goes on either way).
 */
export async function closePage(
  page: Page,
  deadlineMs: number,
): Promise<Error | typeof TIMED_OUT | undefined> {
  // Settled either way: a close that fails after the deadline is no unhandled rejection.
  const closing = page.close().then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  const end = Date.now() + deadlineMs;
  for (;;) {
    const left = end - Date.now();
    const outcome = await within(closing, Math.max(0, Math.min(ASK_AGAIN_MS, left)));
    if (outcome !== TIMED_OUT || left <= ASK_AGAIN_MS) return outcome;
    await within(askAgain(page), end - Date.now());
  }
}

async function askAgain(page: Page): Promise<void> {
  try {
    const session = await page.context().newCDPSession(page);
    try {
      const { targetInfo } = await session.send('Target.getTargetInfo');
      await session.send('Target.closeTarget', { targetId: targetInfo.targetId });
    } finally {
      await session.detach().catch(() => undefined);
    }
  } catch {
    // Gone meanwhile, or the browser refuses a session: the deadline decides.
  }
}
