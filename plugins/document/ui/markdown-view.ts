/// <reference lib="dom" />
/*
 * The Markdown kind's editor view (ADR 35), bundled to ui/dist/markdown-view.js by `npm run
 * build`: GitHub-flavoured Markdown with math, footnotes and [[wikilinks]], fenced code highlighted
 * by its language, its front matter shown as metadata, the workspace's images (images.ts, ADR 74),
 * links that Ctrl/Cmd+click follows (links.ts, ADR 76), and a Live mode whose decorations hide the
 * marks and draw tables, math, tasks, callouts and diagrams (live-preview.ts, live/, ADR 73).
 * CodeMirror comes from the page's one copy.
 */
import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import type { Extension } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import type { TextKindView } from '@vmark/sdk';
import { Wikilink } from '@vmark/sdk/markdown';
import { formatCommands } from './format-commands.js';
import { frontMatter } from './front-matter.js';
import { imageExtensions, liveImages } from './images.js';
import { followLinkAtCursor, links } from './links.js';
import { codeHighlighting, codeLanguage, FootnoteSyntax, MathSyntax, richLive } from './live/index.js';
import { livePreview } from './live-preview.js';
import { LongParagraphs } from './long-paragraphs.js';

export const view: TextKindView<Extension, EditorView> = {
  type: 'text',
  extensions: (tab, api) => [
    markdown({
      base: markdownLanguage,
      extensions: [MathSyntax, FootnoteSyntax, Wikilink, LongParagraphs],
      codeLanguages: codeLanguage,
    }),
    codeHighlighting,
    frontMatter,
    imageExtensions(tab, api),
    links(tab, api),
  ],
  live: [livePreview, richLive, liveImages],
  // The formatting commands (ADR 72) and Follow link (ADR 76), declared `runsIn: "page"` in the manifest.
  commands: { ...formatCommands, 'document.followLink': followLinkAtCursor },
};
