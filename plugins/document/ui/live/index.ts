import type { Extension } from '@codemirror/state';
import { richBlocks } from './rich-decorations.js';
import { richTheme } from './rich-theme.js';

export { codeHighlighting, codeLanguage } from './code-highlight.js';
export { FootnoteSyntax, MathSyntax } from './syntax.js';

/** Live mode's rich rendering beyond the live preview's walk (ADR 73): the drawn blocks and the looks. */
export const richLive: Extension = [richBlocks, richTheme];
