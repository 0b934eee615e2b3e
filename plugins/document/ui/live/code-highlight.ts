import {
  HighlightStyle,
  LanguageDescription,
  LanguageSupport,
  StreamLanguage,
  syntaxHighlighting,
} from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { tags } from '@lezer/highlight';
import { loadSibling } from './lazy.js';

/*
 * Fenced code highlighted by its language, in both modes: the code languages of
 * @codemirror/language-data, loaded (ui/dist/code-languages.js) the first time a note has a
 * fenced block that names one; the block is parsed again once its language has come. The colours
 * are for code tokens only: Markdown's own (headings, emphasis) stay as the modes draw them.
 */

interface LanguagesModule {
  readonly languages: readonly LanguageDescription[];
}

/** What a name no language answers to is read as: text, one token a line. */
const plain = new LanguageSupport(
  StreamLanguage.define({
    name: 'plain',
    token: (stream) => {
      stream.skipToEnd();
      return null;
    },
  }),
);

const asked = new Map<string, LanguageDescription>();

/**
 * The language of a fenced block's info string, for @codemirror/lang-markdown's `codeLanguages`:
 * a description that loads the languages module, then the one the name matches (or plain text).
 */
export function codeLanguage(info: string): LanguageDescription | null {
  const name = info.trim().split(/\s/)[0]!.toLowerCase();
  if (name === '' || name === 'mermaid') return null;
  let description = asked.get(name);
  if (description === undefined) {
    description = LanguageDescription.of({
      name,
      load: async () => {
        const { languages } = await loadSibling<LanguagesModule>('code-languages.js');
        const found = LanguageDescription.matchLanguageName(languages, name, true);
        return found === null ? plain : found.load();
      },
    });
    asked.set(name, description);
  }
  return description;
}

/** Colours through the page's variables where a theme sets them, GitHub's light ones otherwise. */
const codeStyle = HighlightStyle.define([
  {
    tag: [tags.keyword, tags.modifier, tags.controlKeyword, tags.operatorKeyword],
    color: 'var(--code-keyword, #cf222e)',
  },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: 'var(--code-string, #0a3069)' },
  {
    tag: [tags.comment, tags.lineComment, tags.blockComment],
    color: 'var(--code-comment, #6e7781)',
    fontStyle: 'italic',
  },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--code-number, #0550ae)' },
  {
    tag: [tags.function(tags.variableName), tags.function(tags.propertyName)],
    color: 'var(--code-function, #8250df)',
  },
  { tag: [tags.typeName, tags.className, tags.namespace], color: 'var(--code-type, #953800)' },
  {
    tag: [tags.definition(tags.variableName), tags.propertyName, tags.attributeName],
    color: 'var(--code-property, #116329)',
  },
  { tag: [tags.tagName], color: 'var(--code-tag, #116329)' },
]);

/**
 * CodeMirror's own tree walker: the one part that every `syntaxHighlighting` call returns. The
 * page's editor draws every registered style in the viewport itself (ADR 96); CodeMirror's walker
 * beside it would step over every block before the viewport on each keystroke of a large note.
 */
const codeMirrorWalker: Extension | undefined = (() => {
  const probe = HighlightStyle.define([]);
  const first = syntaxHighlighting(probe) as readonly Extension[];
  const second = syntaxHighlighting(probe) as readonly Extension[];
  return first.find((part) => second.includes(part));
})();

/** The code colours, registered for the page's highlighter (not CodeMirror's walker). */
export const codeHighlighting: Extension = (syntaxHighlighting(codeStyle) as readonly Extension[]).filter(
  (part) => part !== codeMirrorWalker,
);
