/**
 * The folders the document and workspace tools never reach (DESIGN §4, ADR 23): what
 * authorises a person's or a delegate's decision must not be writable by the client it
 * constrains.
 *
 * - Every folder named `.vmark`, at any depth: a workspace's coherence ledger, contexts and
 *   snapshots. Not only the one at an open root: any folder can become a root later (or is
 *   the root of a nested checkout), and a ledger prepared through its parent would then
 *   already be forged.
 * - `$VMARK_HOME`: settings (auto-approve), client credentials, grant records, user plugins.
 *
 * This is the pure half: spellings only, no file system. Names are compared folded — case,
 * Unicode normalization, and the suffixes Windows ignores (trailing dots and spaces, `:stream`)
 * — so `.VMARK` on a case-insensitive disk is refused too. On a case-sensitive disk that
 * refuses a few more names than needed, which is the safe side. `resolve-in-scope.ts` adds
 * the file identity check for aliases no spelling shows (8.3 short names, bind mounts).
 */
import path from 'node:path';

export const VMARK_FOLDER = '.vmark';

export const INSIDE_LEDGER_FOLDER =
  'is inside a .vmark folder, which holds a workspace coherence ledger: the document and workspace tools ' +
  'cannot open, read, write or create anything there';

export const INSIDE_VMARK_HOME =
  "is inside VMark's own data folder (VMARK_HOME: settings, client credentials, grants, plugins): the " +
  'document and workspace tools cannot open, read, write or create anything there';

/**
 * One path segment as a case-insensitive, normalization-insensitive file system sees it.
 * Upper- then lower-casing folds `ß`/`SS` and `ſ`/`s` alike, as full case folding does.
 */
export function foldSegment(segment: string): string {
  return segment
    .normalize('NFC')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFC')
    .replace(/:.*$/s, '')
    .replace(/[. ]+$/, '');
}

/** The folded segments of an absolute, normalized path (its file system root first). */
function foldedSegments(absolute: string): string[] {
  const { root } = path.parse(absolute);
  const rest = absolute
    .slice(root.length)
    .split(path.sep)
    .filter((s) => s !== '');
  return [foldSegment(root), ...rest.map(foldSegment)];
}

const FOLDED_VMARK = foldSegment(VMARK_FOLDER);

/** The homes' folded segments: a host has one or two (as given, realpath) and asks on every resolve. */
const foldedHomes = new Map<string, readonly string[]>();

function foldedHome(home: string): readonly string[] {
  let segments = foldedHomes.get(home);
  if (segments === undefined) {
    segments = foldedSegments(home);
    // Bounded all the same: a process that sees many homes (tests) folds again past it.
    if (foldedHomes.size >= 16) foldedHomes.clear();
    foldedHomes.set(home, segments);
  }
  return segments;
}

/**
 * Why `candidate` must stay out of the tools' reach, or null when it may be used. Both
 * `candidate` and `homes` (`$VMARK_HOME` as given and as realpath) are absolute and normalized.
 * A path *at* a protected folder counts as inside it: opening it as a workspace is refused too.
 */
export function protectedReason(candidate: string, homes: readonly string[]): string | null {
  const segments = foldedSegments(candidate);
  if (segments.slice(1).includes(FOLDED_VMARK)) return INSIDE_LEDGER_FOLDER;
  for (const home of homes) {
    const homeSegments = foldedHome(home);
    if (homeSegments.length <= segments.length && homeSegments.every((s, i) => s === segments[i]))
      return INSIDE_VMARK_HOME;
  }
  return null;
}
