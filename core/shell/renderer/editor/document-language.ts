import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import { yaml } from '@codemirror/lang-yaml';
import type { Extension } from '@codemirror/state';
import { frontMatter } from './front-matter.js';

/** Whether a tab holds YAML (a workflow, or any .yml file): it has no wysiwyg mode. */
export function isYaml(kind: string, filePath: string | null): boolean {
  return kind === 'yaml-workflow' || /\.ya?ml$/i.test(filePath ?? '');
}

/** The language of a tab: GitHub-flavoured Markdown, or YAML for workflow files. */
export function documentLanguage(kind: string, filePath: string | null): Extension {
  return isYaml(kind, filePath) ? yaml() : [markdown({ base: markdownLanguage }), frontMatter];
}
