/**
 * A page can stop answering — a script in an endless loop holds the renderer, and every CDP
 * call to it waits. Perception calls are bounded, so a call fails with `TIMEOUT` instead of
 * hanging; the work itself cannot be cancelled and finishes (or not) on its own.
 */
import { TokenError } from '@vmark/sdk';

export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new TokenError(
            'TIMEOUT',
            `${what} did not finish within ${Math.round(ms / 1000)} s: the page is not answering (a script may be ` +
              'keeping it busy); try again, or navigate the tab elsewhere',
          ),
        ),
      ms,
    );
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
