/// <reference lib="dom" />
/*
 * The Markdown kind's editor view (ADR 35), bundled to ui/dist/markdown-view.js by `npm run
 * build`: GitHub-flavoured Markdown with [[wikilinks]], its front matter shown as metadata, links
 * that Ctrl/Cmd+click follows (links.ts), and a Live mode whose decorations hide the marks
 * (live-preview.ts). CodeMirror comes from the page's one copy.
 */
import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import type { Extension } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import type { TextKindView } from '@vmark/sdk';
import { Wikilink } from '@vmark/sdk/markdown';
import { formatCommands } from './format-commands.js';
import { frontMatter } from './front-matter.js';
import { followLinkAtCursor, links } from './links.js';
import { livePreview } from './live-preview.js';

export const view: TextKindView<Extension, EditorView> = {
  type: 'text',
  extensions: (tab, api) => [
    markdown({ base: markdownLanguage, extensions: [Wikilink] }),
    frontMatter,
    links(tab, api),
  ],
  live: livePreview,
  // The formatting commands (ADR 72) and Follow link (ADR 76), declared `runsIn: "page"` in the manifest.
  commands: { ...formatCommands, 'document.followLink': followLinkAtCursor },
};
