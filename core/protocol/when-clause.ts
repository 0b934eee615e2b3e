/*
 * The `when` of an editor command: terms over a closed set of context keys, joined by `&&`.
 * A term is `editorFocus`, `!editorFocus`, `activeKind == markdown` or `mode != source`. No `||`
 * and no parentheses: a command that applies in two unrelated places is two commands.
 */

/** What the page knows at the moment a key is pressed or the palette opens. */
export interface CommandContext {
  /** The caret is in a document's editor. */
  readonly editorFocus: boolean;
  /** The active tab's kind (`markdown`, `workflow`, …), `''` with no tab. */
  readonly activeKind: string;
  /** The editor's mode: `wysiwyg` (Live) or `source`. */
  readonly mode: 'wysiwyg' | 'source';
}

export const CONTEXT_KEYS = ['editorFocus', 'activeKind', 'mode'] as const;
type ContextKey = (typeof CONTEXT_KEYS)[number];

type Term =
  | { readonly key: ContextKey; readonly negated: boolean }
  | { readonly key: ContextKey; readonly equals: boolean; readonly value: string };

export type WhenClause = readonly Term[];

const isContextKey = (name: string): name is ContextKey => (CONTEXT_KEYS as readonly string[]).includes(name);

/** The parsed clause, or why it is not one. */
export function parseWhen(text: string): { clause: WhenClause } | { problem: string } {
  const terms: Term[] = [];
  for (const raw of text.split('&&')) {
    const term = raw.trim();
    const comparison = /^([A-Za-z]+)\s*(==|!=)\s*([A-Za-z0-9_-]+)$/.exec(term);
    const name = comparison ? (comparison[1] ?? '') : term.replace(/^!\s*/, '');
    if (!isContextKey(name)) {
      return { problem: `"${term}" in when "${text}" names no context key (${CONTEXT_KEYS.join(', ')})` };
    }
    if (comparison) terms.push({ key: name, equals: comparison[2] === '==', value: comparison[3] ?? '' });
    else if (/^!?\s*[A-Za-z]+$/.test(term)) terms.push({ key: name, negated: term.startsWith('!') });
    else return { problem: `"${term}" in when "${text}" is not a term` };
  }
  return { clause: terms };
}

/** Whether the clause holds in `context`; a bare key holds when its value is true or a non-empty string. */
export function holds(clause: WhenClause, context: CommandContext): boolean {
  return clause.every((term) => {
    const value = context[term.key];
    if ('value' in term) return (String(value) === term.value) === term.equals;
    const truthy = value === true || (typeof value === 'string' && value !== '');
    return truthy !== term.negated;
  });
}
