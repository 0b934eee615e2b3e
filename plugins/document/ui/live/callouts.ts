/*
 * Obsidian's callouts: a block quote whose first line is `[!type]`, an optional `+`/`-` (folding,
 * read and ignored), then an optional title. Obsidian's types and their aliases; an unknown type is
 * drawn as a note, titled with its own name.
 */

export interface CalloutStyle {
  /** The class suffix: one per colour family. */
  readonly kind: string;
  readonly icon: string;
}

const STYLES: Record<string, CalloutStyle> = {
  note: { kind: 'note', icon: '✎' },
  abstract: { kind: 'abstract', icon: '☰' },
  info: { kind: 'info', icon: 'ℹ' },
  todo: { kind: 'todo', icon: '☑' },
  tip: { kind: 'tip', icon: '★' },
  success: { kind: 'success', icon: '✓' },
  question: { kind: 'question', icon: '?' },
  warning: { kind: 'warning', icon: '⚠' },
  failure: { kind: 'failure', icon: '✗' },
  danger: { kind: 'danger', icon: '⚡' },
  bug: { kind: 'bug', icon: '✱' },
  example: { kind: 'example', icon: '≡' },
  quote: { kind: 'quote', icon: '❝' },
};

const ALIASES: Record<string, string> = {
  summary: 'abstract',
  tldr: 'abstract',
  hint: 'tip',
  important: 'tip',
  check: 'success',
  done: 'success',
  help: 'question',
  faq: 'question',
  caution: 'warning',
  attention: 'warning',
  fail: 'failure',
  missing: 'failure',
  error: 'danger',
  cite: 'quote',
};

export interface CalloutHead {
  readonly type: string;
  readonly style: CalloutStyle;
  /** The title as written, or '' (then the type's name is shown). */
  readonly title: string;
  /** Where, in the line, the `>` … `]` prefix (and the space after it) ends. */
  readonly prefixEnd: number;
}

const HEAD = /^(\s*>\s?)\[!([A-Za-z][\w-]*)\]([+-]?)(\s*)(.*)$/;

/** A block quote's first line read as a callout's head, or null when it is a plain quote. */
export function calloutHead(line: string): CalloutHead | null {
  const match = HEAD.exec(line);
  if (match === null) return null;
  const type = match[2]!.toLowerCase();
  const style = STYLES[ALIASES[type] ?? type] ?? STYLES.note!;
  const prefixEnd = match[1]!.length + match[2]!.length + 3 + match[3]!.length + match[4]!.length;
  return { type, style, title: match[5]!.trim(), prefixEnd };
}

/** The title shown when none is written: the type, capitalised. */
export function defaultTitle(type: string): string {
  return type.charAt(0).toUpperCase() + type.slice(1);
}
