/*
 * Built on its own as ui/dist/code-languages.js (rolldown.config.mjs, every language inlined), and
 * loaded the first time a note has a fenced code block with an info string.
 */
export { languages } from '@codemirror/language-data';
