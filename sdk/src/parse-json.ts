import type { z } from 'zod';

/**
 * Untrusted JSON (a file another process wrote, a page's answer) checked against a
 * schema: the value, or `undefined` when the text is not JSON or the value does not fit.
 */
export function parseJsonAs<S extends z.ZodType>(schema: S, text: string): z.infer<S> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
