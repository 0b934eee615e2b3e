import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Settings, z } from '@vmark/sdk';
import { inject, injectable } from 'inversify';
import { HostOptionsToken } from '../container/host-tokens.js';
import type { HostOptions } from '../host-options.js';

export const SETTINGS_FILE = 'settings.json';

/**
 * The person's settings, `$VMARK_HOME/settings.json`, read on every call: the
 * file is small, and a change made in the UI or by hand applies at once. A file
 * that does not parse counts as empty, so every setting falls back to its default.
 */
@injectable()
export class SettingsStore implements Settings {
  constructor(@inject(HostOptionsToken) private readonly options: HostOptions) {}

  get<T>(key: string, schema: z.ZodType<T>, fallback: T): T {
    let value: unknown = this.#read();
    for (const part of key.split('.')) {
      value =
        typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
    }
    if (value === undefined) return fallback;
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : fallback;
  }

  #read(): unknown {
    try {
      return JSON.parse(readFileSync(path.join(this.options.home, SETTINGS_FILE), 'utf8')) as unknown;
    } catch {
      return {};
    }
  }
}
