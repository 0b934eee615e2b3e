import { randomBytes } from 'node:crypto';
import { chmod, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { DomainError } from '@vmark/sdk';
import type { SettingValue } from './setting-declaration.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `settings` with `value` at the dotted `key`; every other key, known or not, kept as it was. */
export function withValue(settings: Json, key: string, value: SettingValue): Json {
  const [head, ...rest] = key.split('.') as [string, ...string[]];
  if (rest.length === 0) return { ...settings, [head]: value };
  const inner = settings[head];
  if (inner !== undefined && !isObject(inner)) {
    throw new DomainError(
      'READ_ONLY',
      `settings.json holds ${JSON.stringify(inner)} at "${head}" where an object of settings belongs; ` +
        'fix it by hand first, nothing was changed',
    );
  }
  return { ...settings, [head]: withValue(inner ?? {}, rest.join('.'), value) };
}

/** `settings` without the dotted `key`; an object left empty by that goes too. */
export function withoutValue(settings: Json, key: string): Json {
  const [head, ...rest] = key.split('.') as [string, ...string[]];
  if (!(head in settings)) return settings;
  const { [head]: inner, ...others } = settings;
  if (rest.length === 0) return others;
  if (!isObject(inner)) return settings;
  const left = withoutValue(inner, rest.join('.'));
  if (left === inner) return settings;
  return Object.keys(left).length === 0 ? others : { ...settings, [head]: left };
}

/**
 * Replaces the file in one step (a sibling temp file, flushed, then renamed over
 * it): a reader sees the old file or the new one, never half of either. The
 * file keeps its permissions; a new one is the person's alone.
 */
export async function writeSettingsFile(file: string, settings: Json): Promise<void> {
  const mode = await stat(file).then(
    (s) => s.mode & 0o777,
    () => 0o600,
  );
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(JSON.stringify(settings, null, 2) + '\n', 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(temp, mode);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
