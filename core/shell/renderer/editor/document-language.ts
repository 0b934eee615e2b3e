import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import { yaml } from '@codemirror/lang-yaml';
import type { Extension } from '@codemirror/state';
import { frontMatter } from './front-matter.js';

const isYaml = (kind: string, filePath: string | null): boolean =>
  kind === 'yaml-workflow' || /\.ya?ml$/i.test(filePath ?? '');

/** Whether a tab has a wysiwyg (live preview) mode: Markdown only. */
export function hasLivePreview(kind: string): boolean {
  return kind === 'markdown';
}

/** The language of a tab: GitHub-flavoured Markdown, YAML, or none (plain text). */
export function documentLanguage(kind: string, filePath: string | null): Extension {
  if (isYaml(kind, filePath)) return yaml();
  return hasLivePreview(kind) ? [markdown({ base: markdownLanguage }), frontMatter] : [];
}
