import { type Platform, parseKeyString } from '../protocol/key-string.js';

/** A command's default key, as its contribution declares it: one for every platform, or one for macOS. */
export interface DefaultKey {
  readonly commandId: string;
  readonly key?: string;
  readonly mac?: string;
}

/** The person's changes: a command's key, or `null` for none (the default unbound). */
export type KeyOverrides = Readonly<Record<string, string | null>>;

export interface ResolvedKeys {
  /** Each command's key now (canonical), absent when it has none. */
  readonly keys: ReadonlyMap<string, string>;
  /** The commands each key is bound to, where that is more than one: the Settings shows them. */
  readonly conflicts: ReadonlyMap<string, readonly string[]>;
  /** Overrides that could not be used, each said plainly; the command keeps its default. */
  readonly problems: readonly string[];
}

/**
 * The keys in force: the defaults, each replaced by the person's override where there is one.
 * An override of a command no plugin contributes now is kept in the file but does nothing.
 */
export function resolveKeys(
  defaults: readonly DefaultKey[],
  overrides: KeyOverrides,
  platform: Platform,
): ResolvedKeys {
  const keys = new Map<string, string>();
  const problems: string[] = [];
  for (const entry of defaults) {
    const declared = platform === 'mac' ? (entry.mac ?? entry.key) : entry.key;
    const parsed = declared === undefined ? undefined : parseKeyString(declared, platform);
    if (parsed !== undefined && 'key' in parsed) keys.set(entry.commandId, parsed.key);
  }
  const known = new Set(defaults.map((d) => d.commandId));
  for (const [commandId, override] of Object.entries(overrides)) {
    if (!known.has(commandId)) continue;
    if (override === null) {
      keys.delete(commandId);
      continue;
    }
    const parsed = parseKeyString(override, platform);
    if ('problem' in parsed)
      problems.push(`the key of "${commandId}": ${parsed.problem}; its default is used`);
    else keys.set(commandId, parsed.key);
  }
  const byKey = new Map<string, string[]>();
  for (const [commandId, key] of keys) byKey.set(key, [...(byKey.get(key) ?? []), commandId]);
  const conflicts = new Map([...byKey].filter(([, ids]) => ids.length > 1));
  return { keys, conflicts, problems };
}
