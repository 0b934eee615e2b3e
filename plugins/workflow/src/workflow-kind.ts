import type { DocumentKind } from '@vmark/sdk';

const WORKFLOW_PATH = /(^|[\\/])\.github[\\/]workflows[\\/][^\\/]+\.ya?ml$/;
// `on` may be quoted, and YAML 1.1 readers turn a bare `on` into `true`.
const TOP_LEVEL_ON = /^(?:on|"on"|'on'|true)[ \t]*:/m;
const TOP_LEVEL_JOBS = /^(?:jobs|"jobs"|'jobs')[ \t]*:/m;

export function looksLikeWorkflowPath(filePath: string): boolean {
  return WORKFLOW_PATH.test(filePath);
}

/** A workflow has top-level `on:` and `jobs:` keys; matching lines is enough to tell it from Markdown. */
export function looksLikeWorkflowYaml(content: string): boolean {
  return TOP_LEVEL_ON.test(content) && TOP_LEVEL_JOBS.test(content);
}

export const workflowKind: DocumentKind = {
  id: 'yaml-workflow',
  priority: 10,
  detect: (filePath, content) =>
    (filePath !== null && looksLikeWorkflowPath(filePath)) ||
    ((filePath === null || /\.ya?ml$/i.test(filePath)) && looksLikeWorkflowYaml(content)),
  // A Markdown note's kind is asked on every keystroke: its text is not built for it.
  readsContent: (filePath) =>
    filePath === null || (!looksLikeWorkflowPath(filePath) && /\.ya?ml$/i.test(filePath)),
};
