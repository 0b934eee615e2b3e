/**
 * Characters that would let a subject look like something it is not: C1
 * controls, bidirectional marks, overrides and isolates (a path that reads
 * backwards), zero-width characters, line and paragraph separators. The same
 * set the broker escapes in its elicitation question.
 */
function isDeceptive(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x0a && code !== 0x09) ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2069) ||
    code === 0xfeff
  );
}

/**
 * Text as DOM nodes in which every deceptive character shows as a marked
 * `\u202e`-style escape, so that a person reads exactly what they allow.
 * Newlines and tabs stay (a script is read as a script).
 */
export function visibleText(text: string): Node[] {
  const nodes: Node[] = [];
  let plain = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (!isDeceptive(code)) {
      plain += char;
      continue;
    }
    if (plain !== '') nodes.push(document.createTextNode(plain));
    plain = '';
    const escape = document.createElement('span');
    escape.className = 'invisible-char';
    escape.title = 'An invisible or direction-changing character';
    escape.textContent = `\\u${code.toString(16).padStart(4, '0')}`;
    nodes.push(escape);
  }
  if (plain !== '') nodes.push(document.createTextNode(plain));
  return nodes;
}
