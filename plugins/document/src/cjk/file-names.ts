/**
 * File names and paths in running text, so that the punctuation rules keep their dots:
 * `notes/中文筆記.md`, `./x.md`, `../docs/a.md`, `.github/workflows/ci.yml`,
 * `C:\Users\me\筆記.txt`. Unlike URLs and domains (the Latin span scanner), a file name
 * may hold CJK letters, and the CJK prose around it gives no boundary to find where it
 * starts; so what is marked is what makes a dot part of a path rather than the end of a
 * sentence:
 *
 * - an extension: a dot right after a letter or digit (CJK included), then one of the
 *   common extensions, all lower or all upper case (`.md`, `.PNG`, not `.Markdown`),
 *   and no further ASCII letter or digit;
 * - a relative prefix: `./` or `../` before a name;
 * - a dot folder or dot file before a separator (`.github/`, `.vscode\`).
 */

/** Common extensions; English words that are also extensions (`.so`, `.key`, `.less`) are left out. */
const EXTENSIONS: readonly string[] = [
  // Text and documents
  'md markdown mdx txt rst adoc tex pdf doc docx odt rtf xls xlsx ods ppt pptx odp csv tsv',
  'epub',
  // Data and configuration
  'json jsonc json5 jsonl yaml yml toml ini cfg conf env xml plist lock log sql',
  'db sqlite graphql proto',
  // Code
  'html htm css scss sass js mjs cjs jsx ts mts cts tsx vue svelte py ipynb rb php',
  'java kt kts scala go rs c h cc cpp cxx hpp cs fs swift dart lua pl sh bash zsh ps1',
  'bat cmd diff patch wasm',
  // Media, archives, binaries
  'png jpg jpeg gif webp svg ico bmp tif tiff heic avif mp3 wav flac ogg m4a mp4 mov avi',
  'mkv webm zip tar gz tgz bz2 xz 7z rar jar apk dmg iso exe dll dylib ttf otf woff',
  'woff2 bak tmp',
].flatMap((line) => line.split(' '));

const EXTENSION = [...EXTENSIONS, ...EXTENSIONS.map((ext) => ext.toUpperCase())]
  // Longest first: `.markdown` must not stop at `.m…`, `.json5` at `.json`.
  .sort((a, b) => b.length - a.length)
  .join('|');

/** A character of a path's name part: any letter (CJK included), digit, or `_ - + @ ~`. */
const NAME = '[\\p{L}\\p{N}_\\-+@~]';
const SEPARATOR = '[\\\\/]';

// Every match starts at a dot, and each alternative looks behind it only once there. The
// pattern is sticky and tried only at the dots `indexOf` finds: a global scan with lookbehinds
// and the `u` flag cost more than all the rules that use the mask (issue 18).
export const FILE_NAME_AT_DOT = new RegExp(
  '\\.(?:' +
    [
      // The extension's dot and the extension.
      `(?<=[\\p{L}\\p{N}_\\-]\\.)(?:${EXTENSION})(?![A-Za-z0-9_])`,
      // `./` and `../`, not the end of an ellipsis.
      `(?<!\\.\\.)\\.?(?=${SEPARATOR}(?:${NAME}|\\.))`,
      // A dot folder or dot file in a path, after CJK prose or a separator (Latin before it is a domain's).
      `(?<![A-Za-z0-9.]\\.)[A-Za-z0-9_][A-Za-z0-9_\\-]*(?=${SEPARATOR}${NAME})`,
    ].join('|') +
    ')',
  'uy',
);

/** Indexed by UTF-16 unit below 0x80: whether it may follow the dot of a match. */
const FOLLOWS_DOT = new Uint8Array(0x80);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./\\') {
  FOLLOWS_DOT[char.charCodeAt(0)] = 1;
}

/**
 * Indexed by UTF-16 unit below 0x80: what a match can hold. It is a dot and then only ASCII
 * letters and digits (an extension), dots, or a dot folder's `A-Z a-z 0-9 _ -`: the
 * look-arounds take nothing, and a path's CJK name comes before the dot.
 */
const IN_MATCH = new Uint8Array(0x80);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.') {
  IN_MATCH[char.charCodeAt(0)] = 1;
}

/** Whether a file-name match can hold the UTF-16 unit `code`. */
export const mayBeInFileName = (code: number): boolean => IN_MATCH[code] === 1;

/**
 * Marks (sets to 1) in `mask` the characters of `text` that make a dot part of a file name or
 * path. The matches are the leftmost, non-overlapping ones a global scan would find.
 */
export function markFileNames(text: string, mask: Uint8Array): void {
  let dot = text.indexOf('.');
  while (dot !== -1) {
    const end = fileNameEnd(text, dot);
    if (end !== -1) mask.fill(1, dot, end);
    dot = text.indexOf('.', end !== -1 ? end : dot + 1);
  }
}

/**
 * Where the file name or path whose dot is `text[dot]` ends, or -1 when the pattern does not
 * match at that dot. Tried at each dot in turn, past the end of each match, it gives the
 * matches of a global scan.
 */
export function fileNameEnd(text: string, dot: number): number {
  // Every alternative needs one of `A-Z a-z 0-9 _ . / \` right after the dot (an
  // extension's first letter, the second dot of `../` or a separator, a dot folder's
  // first character): a sentence's full stop is passed over without the pattern.
  if (!FOLLOWS_DOT[text.charCodeAt(dot + 1)]) return -1;
  FILE_NAME_AT_DOT.lastIndex = dot;
  const match = FILE_NAME_AT_DOT.exec(text);
  return match ? dot + match[0].length : -1;
}
