import { escapedCodePoint, isDeceptive } from '../../../protocol/deceptive-characters.js';

/** Newlines and tabs lay a script out; every other deceptive character is shown escaped. */
const LAYOUT = new Set([0x0a, 0x09]);

/**
 * Text as DOM nodes in which every deceptive character (the protocol's one list, which
 * the broker's question escapes too) shows as a marked `\u202e`-style escape, so that
 * a person reads exactly what they allow.
 * Newlines and tabs stay (a script is read as a script).
 */
export function visibleText(text: string): Node[] {
  const nodes: Node[] = [];
  let plain = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (!isDeceptive(code) || LAYOUT.has(code)) {
      plain += char;
      continue;
    }
    if (plain !== '') nodes.push(document.createTextNode(plain));
    plain = '';
    const escape = document.createElement('span');
    escape.className = 'invisible-char';
    escape.title = 'An invisible or direction-changing character';
    escape.textContent = escapedCodePoint(code);
    nodes.push(escape);
  }
  if (plain !== '') nodes.push(document.createTextNode(plain));
  return nodes;
}
