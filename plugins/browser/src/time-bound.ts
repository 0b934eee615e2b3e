/**
 * A wait with an end: the browser's calls race what they wait for (a page load, a probe of a
 * page whose renderer may be hung) against a timer, so that no call waits on a page for ever.
 */

export const TIMED_OUT: unique symbol = Symbol('timed out');

/** `promise`'s value, or `TIMED_OUT` once `ms` have passed; `promise` goes on either way. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>(
    (resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), ms)),
  );
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
