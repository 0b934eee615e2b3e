import type { DocumentKind } from '@vmark/sdk';

/*
 * Browser workflow files (ADR 42): `<name>.workflow.md`. The name keeps `.md` so that the file is
 * still Markdown to everything else — GitHub, another editor, this host with the browser plugin
 * off (then the document plugin's `markdown` kind, priority 0, claims it).
 */

export const WORKFLOW_FILE_KIND = 'browser-workflow';
const WORKFLOW_FILE = /\.workflow\.md$/i;

export function isWorkflowFilePath(filePath: string): boolean {
  return WORKFLOW_FILE.test(filePath);
}

export const workflowFileKind: DocumentKind = {
  id: WORKFLOW_FILE_KIND,
  priority: 10,
  // By name only: a Markdown note that happens to start with `site:` front matter stays Markdown.
  detect: (filePath) => filePath !== null && isWorkflowFilePath(filePath),
  readsContent: () => false,
};
