/**
 * When a file moves (a rename, a move by drag), the edits that keep every link to it working,
 * each in the form it was written (issue 19): a wikilink keeps its name form while the name
 * still finds the file (else it takes the vault path), its heading and alias; a Markdown link
 * keeps being relative (or vault-absolute, if it was), `<angled>` or percent-encoded, with or
 * without `.md`, its `#heading` and title. The moved note's own relative links follow it too.
 * Only the part that names the file is replaced, so nothing else of the note changes.
 */
import { folderOf, linkTarget } from './link-target.js';
import { type NoteLink, noteLinks } from './note-links.js';

export interface TextEdit {
  readonly from: number;
  readonly to: number;
  readonly insert: string;
}

export interface Move {
  readonly from: string;
  readonly to: string;
}

/** The edits to `text` (the note at `notePath`) for `move`; `files` is the vault before it. */
export function editsForMove(
  text: string,
  notePath: string,
  move: Move,
  files: readonly string[],
): TextEdit[] {
  const after = files.map((file) => (file === move.from ? move.to : file));
  const noteAfter = notePath === move.from ? move.to : notePath;
  const edits: TextEdit[] = [];
  for (const link of noteLinks(text)) {
    if (link.target === '') continue;
    const target = linkTarget(link, notePath, files);
    if (target === null) continue;
    const targetAfter = target === move.from ? move.to : target;
    const insert =
      link.form === 'wikilink' || link.form === 'embed'
        ? target === move.from
          ? wikilinkName(link, targetAfter, noteAfter, after)
          : null
        : noteAfter !== notePath || targetAfter !== target
          ? markdownPath(link, targetAfter, noteAfter)
          : null;
    if (insert !== null && insert !== text.slice(link.targetFrom, link.targetTo))
      edits.push({ from: link.targetFrom, to: link.targetTo, insert });
  }
  return edits;
}

/** Applies edits that do not overlap, in any order. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let result = text;
  for (const edit of [...edits].sort((a, b) => b.from - a.from))
    result = result.slice(0, edit.from) + edit.insert + result.slice(edit.to);
  return result;
}

function wikilinkName(link: NoteLink, target: string, notePath: string, files: readonly string[]): string {
  const bare = link.target.toLowerCase().endsWith('.md') ? target : target.replace(/\.md$/i, '');
  const name = bare.slice(bare.lastIndexOf('/') + 1);
  if (!link.target.includes('/')) {
    const probe: NoteLink = { ...link, target: name };
    if (linkTarget(probe, notePath, files) === target) return name;
  }
  return bare;
}

function markdownPath(link: NoteLink, target: string, notePath: string): string {
  const withExtension = link.target.toLowerCase().endsWith('.md') || !target.toLowerCase().endsWith('.md');
  const file = withExtension ? target : target.slice(0, -'.md'.length);
  const path = link.target.startsWith('/') ? `/${file}` : relative(folderOf(notePath), file);
  return link.angled ? path : encodePath(path);
}

/** The path from a folder (`a/b/`, or `` at the root) to a vault file. */
function relative(folder: string, file: string): string {
  const from = folder.split('/').filter((part) => part !== '');
  const to = file.split('/');
  let shared = 0;
  while (shared < from.length && shared < to.length - 1 && from[shared] === to[shared]) shared++;
  return [...from.slice(shared).map(() => '..'), ...to.slice(shared)].join('/');
}

/** What a link destination cannot hold as it is: spaces, brackets, `%`, `#`, `?`, a backslash and controls. */
function encodePath(path: string): string {
  let encoded = '';
  for (const char of path)
    encoded +=
      char <= ' ' || '%()<>#?\\'.includes(char)
        ? `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
        : char;
  return encoded;
}
