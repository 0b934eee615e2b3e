/// <reference lib="dom" />
/*
 * The plain-text kind's editor view (ADR 35): the text as it is, editable, no language, no Live
 * mode — a `config.json` or `notes.txt` is never rendered.
 */
import type { Extension } from '@codemirror/state';
import type { TextKindView } from '@vmark/sdk';

export const view: TextKindView<Extension> = {
  type: 'text',
  extensions: () => [],
};
