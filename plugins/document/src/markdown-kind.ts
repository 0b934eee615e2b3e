import path from 'node:path';
import type { DocumentKind } from '@vmark/sdk';

/** The file extensions Markdown goes by; an untitled tab, and a file with no extension, count too. */
export const MARKDOWN_EXTENSIONS: ReadonlySet<string> = new Set([
  '.md',
  '.markdown',
  '.mdown',
  '.mkd',
  '.mkdn',
  '.mdwn',
  '.mdtxt',
  '.mdtext',
]);

function isMarkdownPath(filePath: string | null): boolean {
  if (filePath === null) return true;
  const extension = path.extname(filePath).toLowerCase();
  return extension === '' || MARKDOWN_EXTENSIONS.has(extension);
}

/** Markdown: the default kind of a new tab, and of files named like Markdown. */
export const markdownKind: DocumentKind = {
  id: 'markdown',
  priority: 0,
  detect: (filePath) => isMarkdownPath(filePath),
  readsContent: () => false,
};

/**
 * Plain text: any other text file (`config.json`, `compose.yaml`, `notes.txt`), shown and
 * saved as it is — never given front matter, never rendered, never transformed.
 */
export const textKind: DocumentKind = {
  id: 'text',
  priority: -1,
  detect: () => true,
  readsContent: () => false,
};
