/** How the query is read (the protocol's `SearchOptions`, which this floor does not import). */
export interface PatternOptions {
  readonly caseSensitive: boolean;
  readonly wholeWord: boolean;
  readonly regex: boolean;
}

/** Longer queries are refused: a search box holds a phrase or a pattern, not a document. */
export const MAX_QUERY_CHARS = 1_000;

/** A letter, a digit or `_` in any script: what a whole word may not touch on either side. */
const WORD = String.raw`[\p{L}\p{N}_]`;

/** A query that makes no pattern, said in words for the person; the host refuses it as `INVALID_ARGUMENT`. */
export class PatternError extends Error {
  override readonly name = 'PatternError';
}

/**
 * The query as the one regular expression that the search, its worker, the replace and the page's preview all run:
 * global, `^`/`$` at each line (`m`), Unicode (`u`: a query is matched by code points, and
 * case folds in every script), case-insensitive unless asked. Typed text is escaped; a regex
 * is taken as JavaScript writes one; a whole word may not touch a letter, digit or `_`.
 * @throws PatternError for an empty or too long query, or a regex that is not valid, in words.
 */
export function searchPattern(query: string, options: PatternOptions): RegExp {
  if (query === '') throw new PatternError('Type something to search for');
  if (query.length > MAX_QUERY_CHARS)
    throw new PatternError(`A query may be at most ${MAX_QUERY_CHARS} characters long`);
  let source = options.regex ? query : escapeRegExp(query);
  if (options.wholeWord) source = `(?<!${WORD})(?:${source})(?!${WORD})`;
  const flags = options.caseSensitive ? 'gmu' : 'gimu';
  try {
    return new RegExp(source, flags);
  } catch (error) {
    // V8 says "Invalid regular expression: /<source>/<flags>: <reason>"; the person needs the reason.
    const reason =
      error instanceof Error ? error.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '') : '';
    throw new PatternError(`This is not a valid regular expression: ${reason}`);
  }
}

/** Every character a pattern reads as syntax, escaped (valid under the `u` flag). */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/**
 * The replacement of one match: typed text as it is, or in regex mode the template with `$&`
 * (the match), `$1`–`$99` (a group; one that does not exist stays as written), `$<name>` and
 * `$$` — `String.prototype.replace`'s rules, applied to one match at a time so that a preview's
 * unchecked matches can be left out.
 */
export function expandReplacement(template: string, match: RegExpExecArray, regex: boolean): string {
  if (!regex) return template;
  return template.replace(
    /\$(\$|&|<([^>]*)>|(\d{1,2}))/g,
    (whole, what: string, name?: string, digits?: string) => {
      if (what === '$') return '$';
      if (what === '&') return match[0];
      if (name !== undefined) {
        const groups = match.groups;
        return groups === undefined ? whole : (groups[name] ?? '');
      }
      // `$12` is group 12 if there is one, else group 1 followed by "2" (as `replace` reads it).
      const number = Number(digits);
      if (number > 0 && number < match.length) return match[number] ?? '';
      const first = Number(digits![0]);
      if (digits!.length === 2 && first > 0 && first < match.length) return (match[first] ?? '') + digits![1];
      return whole;
    },
  );
}

/**
 * The text with every match of `pattern` replaced but those whose index (in the order the
 * search lists them, empty matches not counted) is in `skip`; and how many were replaced.
 */
export function replaceMatches(
  text: string,
  pattern: RegExp,
  replacement: string,
  regex: boolean,
  skip: ReadonlySet<number>,
): { text: string; replaced: number } {
  const parts: string[] = [];
  let position = 0;
  let index = 0;
  let replaced = 0;
  pattern.lastIndex = 0;
  for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
    if (found[0].length === 0) {
      pattern.lastIndex = found.index + (text.codePointAt(found.index)! > 0xffff ? 2 : 1);
      if (pattern.lastIndex > text.length) break;
      continue;
    }
    if (!skip.has(index)) {
      parts.push(text.slice(position, found.index), expandReplacement(replacement, found, regex));
      position = found.index + found[0].length;
      replaced++;
    }
    index++;
  }
  parts.push(text.slice(position));
  return { text: parts.join(''), replaced };
}
