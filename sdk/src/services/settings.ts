import type { z } from 'zod';

/**
 * The person's settings (`$VMARK_HOME/settings.json`), by dotted key, e.g.
 * `integrations.autoApproveEdits` or `cjkFormatting`. Read on every call, so a
 * change made elsewhere (the UI, a text editor) applies to the next call.
 */
export interface Settings {
  /** The value at `key` parsed with `schema`; `fallback` when it is absent or does not parse. */
  get<T>(key: string, schema: z.ZodType<T>, fallback: T): T;
}
