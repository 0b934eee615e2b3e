/**
 * The project's one Markdown parser (DESIGN §4): @lezer/markdown, served from
 * the SDK so that every plugin parses with the same version and extensions, and
 * depends on the SDK alone. A subpath of its own (`@vmark/sdk/markdown`), so a
 * plugin that never parses Markdown does not load it.
 */
export { GFM, MarkdownParser, parser, Strikethrough, Table, TaskList } from '@lezer/markdown';
export type { BlockContext, InlineContext, MarkdownConfig } from '@lezer/markdown';
export { frontMatterLength } from './front-matter.js';
export { Wikilink, wikilinkParts, type WikilinkParts } from './wikilink.js';
