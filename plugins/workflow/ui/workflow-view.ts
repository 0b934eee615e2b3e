/// <reference lib="dom" />
/*
 * The workflow kind's editor view (ADR 35), bundled to ui/dist/workflow-view.js by `npm run
 * build`: YAML highlighting, Source mode only (a workflow has nothing to preview).
 */
import { yaml } from '@codemirror/lang-yaml';
import type { Extension } from '@codemirror/state';
import type { TextKindView } from '@vmark/sdk';

export const view: TextKindView<Extension> = {
  type: 'text',
  extensions: () => yaml(),
};
