import { parseKeyString } from '../protocol/key-string.js';
import { parseWhen } from '../protocol/when-clause.js';
import type { EditorCommandContribution } from './manifest.js';

/** `<plugin id>.<name>`: a command's id says whose it is, so two plugins cannot take one id. */
const NAME = /^[a-z][A-Za-z0-9]*(?:[.-][A-Za-z0-9]+)*$/;

/**
 * What is wrong with a plugin's editor commands: ids outside its namespace or repeated, empty
 * titles, keys that are not key strings (checked for both platforms, `Mod` differs), one default
 * key given to two of its commands, a `when` over unknown context keys. Pure.
 */
export function editorCommandProblems(
  pluginId: string,
  commands: readonly EditorCommandContribution[],
): string[] {
  const problems: string[] = [];
  // The editor's own commands are `vmark.<name>` (protocol/builtin-commands.ts).
  if (pluginId === 'vmark' && commands.length > 0)
    problems.push(
      'editor commands "vmark.<name>" are the editor\'s own: a plugin "vmark" may not contribute any',
    );
  const seenIds = new Set<string>();
  const seenKeys = new Map<string, string>();
  for (const command of commands) {
    const { id } = command;
    const prefix = `${pluginId}.`;
    if (!id.startsWith(prefix) || !NAME.test(id.slice(prefix.length))) {
      problems.push(`editor command "${id}" must be named "${pluginId}.<name>" (letters, digits, . and -)`);
    }
    if (seenIds.has(id)) problems.push(`editor command "${id}" is contributed twice`);
    seenIds.add(id);
    if (command.title.trim() === '') problems.push(`editor command "${id}" has an empty title`);
    for (const [platform, text] of [
      ['other', command.key],
      ['mac', command.mac ?? command.key],
    ] as const) {
      if (text === undefined) continue;
      const parsed = parseKeyString(text, platform);
      if ('problem' in parsed) {
        if (platform === 'other' || command.mac !== undefined)
          problems.push(`editor command "${id}": ${parsed.problem}`);
        continue;
      }
      const other = seenKeys.get(`${platform} ${parsed.key}`);
      if (other !== undefined)
        problems.push(`editor commands "${other}" and "${id}" both take ${parsed.key}`);
      else seenKeys.set(`${platform} ${parsed.key}`, id);
    }
    if (command.when !== undefined) {
      const parsed = parseWhen(command.when);
      if ('problem' in parsed) problems.push(`editor command "${id}": ${parsed.problem}`);
    }
  }
  return problems;
}
