import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../vault/atomic-write.js';

/** Which plugins a person turned off, per VMARK_HOME. Plugins are enabled unless listed. */
export interface PluginState {
  readonly disabled: readonly string[];
}

export const PLUGIN_STATE_FILE = 'plugins.json';

export async function readPluginState(home: string): Promise<PluginState> {
  const text = await readFile(path.join(home, PLUGIN_STATE_FILE), 'utf8').catch(() => null);
  if (text === null) return { disabled: [] };
  try {
    const parsed = JSON.parse(text) as { disabled?: unknown };
    const disabled = Array.isArray(parsed.disabled)
      ? parsed.disabled.filter((x) => typeof x === 'string')
      : [];
    return { disabled };
  } catch {
    // A hand-edited file that no longer parses must not take every plugin down with it.
    return { disabled: [] };
  }
}

export async function writePluginState(home: string, state: PluginState): Promise<void> {
  const disabled = [...new Set(state.disabled)].sort();
  await writeFileAtomic(path.join(home, PLUGIN_STATE_FILE), JSON.stringify({ disabled }, null, 2) + '\n');
}
