import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { KeyOverrides } from './keybindings.js';
import { writeSettingsFile } from './settings-file.js';

/**
 * `$VMARK_HOME/keybindings.json`: `{ "version": 1, "keys": { "<command id>": "Ctrl+K" | null } }`.
 * A versioned object rather than VS Code's array, so one command has one entry and a later
 * format (chords) can be told apart.
 */
export const KEYBINDINGS_FILE = 'keybindings.json';

export interface LoadedOverrides {
  readonly overrides: KeyOverrides;
  /** Why the file was not used, in words for the person; the defaults are in force then. */
  readonly problem?: string;
}

export function keybindingsPath(vmarkHome: string): string {
  return path.join(vmarkHome, KEYBINDINGS_FILE);
}

/** The person's overrides; a missing file is none, a bad one is none with the reason. Reads, never writes. */
export async function loadKeyOverrides(file: string): Promise<LoadedOverrides> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { overrides: {} };
    return {
      overrides: {},
      problem: `${file} could not be read (${(error as Error).message}); the default keys are used`,
    };
  }
  const bad = (why: string): LoadedOverrides => ({
    overrides: {},
    problem: `${file} ${why}; the default keys are used until it is fixed`,
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return bad(`is not JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return bad('is not a JSON object');
  const { version, keys } = parsed as Record<string, unknown>;
  if (version !== 1) return bad(`has version ${JSON.stringify(version)}, where this vmark reads version 1`);
  if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) return bad('has no "keys" object');
  const overrides: Record<string, string | null> = {};
  for (const [commandId, key] of Object.entries(keys as Record<string, unknown>)) {
    if (key !== null && typeof key !== 'string')
      return bad(`gives "${commandId}" ${JSON.stringify(key)}, not a key string or null`);
    overrides[commandId] = key;
  }
  return { overrides };
}

/** Writes the overrides in one step (a reader sees the old file or the new one). */
export async function saveKeyOverrides(file: string, overrides: KeyOverrides): Promise<void> {
  const keys = Object.fromEntries(Object.entries(overrides).sort(([a], [b]) => a.localeCompare(b)));
  await writeSettingsFile(file, { version: 1, keys });
}
