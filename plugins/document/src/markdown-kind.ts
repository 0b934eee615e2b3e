import type { DocumentKind } from '@vmark/sdk';

/** Markdown is the fallback kind: any text document no other kind claims. */
export const markdownKind: DocumentKind = {
  id: 'markdown',
  priority: 0,
  detect: () => true,
};
