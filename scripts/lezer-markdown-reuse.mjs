/**
 * The editor page's Markdown parser reuses, after an edit, whole subtrees of the tree before it that
 * grow with their place in the note, not only as large as the first line it reuses allows (ADR 109).
 *
 * @lezer/markdown's incremental parse (`FragmentCursor.takeNodes`) takes an anonymous node of the old
 * tree (one of the groups its balanced tree is made of) whole only when it is at most a quarter of the
 * block before the line where the taking starts. An edit anywhere makes the parse start over from the
 * note's first line, where that quarter is 0: every group is entered and every top-level block is
 * taken one by one, and the whole tree is built again (a keystroke in a 10 MB note: ~20 ms of the
 * page's ~28). Here the bound is a quarter of the block before the node being looked at, as the
 * taking goes on: the same guard against a lopsided tree, measured where the node is.
 *
 * Applied when the page's modules are bundled (rolldown.config.mjs); the build fails if the installed
 * version's code is not the one this was written for, so an upgrade is looked at, not silently lost.
 */

const MARKDOWN_DIST = /[\\/]node_modules[\\/]@lezer[\\/]markdown[\\/]dist[\\/]index\.js$/;

const BOUND_AT_THE_FIRST_LINE = 'cur.to - cur.from > maxAnonSize ||';
const BOUND_WHERE_THE_NODE_IS =
  'cur.to - cur.from > Math.max(maxAnonSize, (cx.lineStart + (cur.from - off - start) - cx.block.from) >> 2) ||';

/** @lezer/markdown's `dist/index.js` with the bound measured where each node is. */
export function reuseGrowsWithPosition(source) {
  const at = source.indexOf(BOUND_AT_THE_FIRST_LINE);
  if (at < 0 || source.indexOf(BOUND_AT_THE_FIRST_LINE, at + 1) >= 0)
    throw new Error(
      '@lezer/markdown: FragmentCursor.takeNodes is not the code scripts/lezer-markdown-reuse.mjs was written for (ADR 109)',
    );
  return source.slice(0, at) + BOUND_WHERE_THE_NODE_IS + source.slice(at + BOUND_AT_THE_FIRST_LINE.length);
}

/** The rolldown plugin that applies it to @lezer/markdown wherever a page module bundles it. */
export const lezerMarkdownReuse = {
  name: 'vmark-lezer-markdown-reuse',
  transform(code, id) {
    return MARKDOWN_DIST.test(id) ? { code: reuseGrowsWithPosition(code), map: null } : null;
  },
};
