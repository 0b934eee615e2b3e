/** The first line of an error's message: enough for a one-line `error` field, without stack noise. */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.split('\n')[0] ?? text;
}
