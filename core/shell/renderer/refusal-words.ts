import type { RefusalReason, StoppedKindPlugin } from '../../protocol/protocol.js';
import { RequestRefused } from './connection.js';

const TEXT_ONLY = 'vmark opens text files only, such as Markdown and YAML.';

/**
 * A refusal as the person reads it. Where the host said why (a file that is not
 * text, no plugin that runs to open it) that is said in words; otherwise the
 * host's code and message, which name the problem exactly (`STALE: …`).
 */
export function refusalWords(error: unknown): string {
  if (!(error instanceof RequestRefused)) return error instanceof Error ? error.message : String(error);
  return error.reason === undefined ? `${error.code}: ${error.message}` : reasonWords(error.reason);
}

function reasonWords(reason: RefusalReason): string {
  const file = `“${reason.fileName}”`;
  if (reason.kind === 'not-text') {
    return reason.picture
      ? `${file} is a picture, not a text file. ${TEXT_ONLY}`
      : `${file} is not a text file. ${TEXT_ONLY}`;
  }
  const off = reason.plugins.filter((p) => !p.enabled);
  const failed = reason.plugins.filter((p) => p.enabled);
  const words = [`No plugin that is turned on opens ${file}.`];
  if (off.length === 1) words.push(`${off[0]!.name}, which opens ${list(off[0]!.kinds)}, is turned off.`);
  else if (off.length > 1) words.push(`Turned off: ${off.map(withKinds).join(', ')}.`);
  if (failed.length > 0) {
    const verb = failed.length === 1 ? 'is' : 'are';
    words.push(`${list(failed.map((p) => p.name))} ${verb} on but not running: see Plugins.`);
  }
  if (reason.plugins.length === 0) words.push('No plugin that opens documents is installed: see Plugins.');
  return words.join(' ');
}

function withKinds(plugin: StoppedKindPlugin): string {
  return `${plugin.name} (${list(plugin.kinds)})`;
}

/** `a`, `a and b`, `a, b and c`. */
function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}
