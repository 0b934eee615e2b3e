import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Settings, z } from '@vmark/sdk';
import { ArgumentError, DomainError, errorCode, SerialQueue } from '@vmark/sdk';
import { inject, injectable, type ServiceIdentifier } from 'inversify';
import { HostOptionsToken } from '../tokens/host-tokens.js';
import type { HostOptions } from '../tokens/host-options.js';
import { withFileLock } from '../vault/file-lock.js';
import { type SettingDeclaration, type SettingValue, valueProblem } from './setting-declaration.js';
import { withoutValue, withValue, writeSettingsFile } from './settings-file.js';

export const SETTINGS_FILE = 'settings.json';

/** Where the store finds the declaration a write is checked against (the plugins' settings catalog). */
export interface SettingsSchema {
  find(key: string): SettingDeclaration | undefined;
}

export const SettingsSchemaToken: ServiceIdentifier<SettingsSchema> = Symbol.for('vmark.host.SettingsSchema');

/**
 * The person's settings, `$VMARK_HOME/settings.json`, read on every call: the
 * file is small, and a change made in the UI or by hand applies at once. A file
 * that does not parse counts as empty, so every setting falls back to its default.
 *
 * Writes go through `set` and `reset`: only declared keys, only values that fit
 * their declaration, one at a time, each an atomic replacement of the file that
 * keeps every other key (unknown ones included) as it was.
 */
@injectable()
export class SettingsStore implements Settings {
  readonly #writes = new SerialQueue();

  constructor(
    @inject(HostOptionsToken) private readonly options: HostOptions,
    @inject(SettingsSchemaToken) private readonly schema: SettingsSchema,
  ) {}

  get file(): string {
    return path.join(this.options.home, SETTINGS_FILE);
  }

  get<T>(key: string, schema: z.ZodType<T>, fallback: T): T {
    const value = this.raw(key);
    if (value === undefined) return fallback;
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : fallback;
  }

  /** The value stored at `key` as it is in the file, unchecked; undefined when absent. */
  raw(key: string): unknown {
    let value: unknown = this.#read();
    for (const part of key.split('.')) {
      value =
        typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
    }
    return value;
  }

  /**
   * Stores `value` at the declared `key`.
   * @throws ArgumentError for an undeclared key or a value that does not fit; DomainError
   *   `READ_ONLY` when settings.json cannot be read or does not parse. The file is unchanged then.
   */
  set(key: string, value: unknown): Promise<void> {
    const declaration = this.schema.find(key);
    if (declaration === undefined) {
      return Promise.reject(new ArgumentError(`${JSON.stringify(key)} is not a setting vmark knows`));
    }
    const problem = valueProblem(declaration, value);
    if (problem !== undefined) {
      return Promise.reject(new ArgumentError(`${key}: ${problem}`));
    }
    return this.#update((current) => withValue(current, key, value as SettingValue));
  }

  /** Removes `key` from the file, so its default applies (and follows a later version's default). */
  reset(key: string): Promise<void> {
    if (this.schema.find(key) === undefined) {
      return Promise.reject(new ArgumentError(`${JSON.stringify(key)} is not a setting vmark knows`));
    }
    return this.#update((current) => withoutValue(current, key));
  }

  /** One write at a time, each reading the file afresh: two quick changes both land. */
  #update(change: (current: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
    return this.#writes.run(() =>
      withFileLock(
        `${this.file}.lock`,
        async () => {
          const current = await readForWrite(this.file);
          await writeSettingsFile(this.file, change(current));
        },
        { timeoutMs: 5_000, staleMs: 10_000 },
      ),
    );
  }

  #read(): unknown {
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
    } catch {
      return {};
    }
  }
}

/** The file's object; absent is empty, but one that cannot be read or parsed is never overwritten. */
async function readForWrite(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return {};
    throw new DomainError(
      'READ_ONLY',
      `${file} cannot be read (${(error as Error).message}); nothing was changed`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new DomainError(
      'READ_ONLY',
      `${file} is not valid JSON (${(error as Error).message}); fix it by hand first, nothing was changed`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new DomainError(
      'READ_ONLY',
      `${file} does not hold a JSON object; fix it by hand first, nothing was changed`,
    );
  }
  return parsed as Record<string, unknown>;
}
