/**
 * YAML front matter: a `---` line at the very top, up to the next `---` (or `...`)
 * line. @lezer/markdown knows nothing of it (it would read a thematic break and a
 * setext heading), so it is found here, and the Markdown parser only sees what follows.
 */
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n(?:[^]*?\r?\n)?(?:---|\.\.\.)[ \t]*(?=\r?\n|$)/;

/** The length of the front matter at the start of `text`, or 0 when there is none. */
export function frontMatterLength(text: string): number {
  if (!text.startsWith('---') && !text.startsWith('\uFEFF---')) return 0;
  const match = FRONT_MATTER.exec(text);
  return match ? match[0].length : 0;
}
