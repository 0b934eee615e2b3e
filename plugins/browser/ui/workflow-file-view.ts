/// <reference lib="dom" />
/*
 * The browser workflow kind's editor view (ADR 35, 42), bundled to ui/dist/workflow-file-view.js
 * by `npm run build`. As the text changes it marks the parser's diagnostics on their lines, and,
 * once the file parses, the `action:` steps a run cannot carry out by itself (action-hints.ts):
 * underline, gutter marker, the message on hover and in the lint panel (Mod-Shift-m; F8 moves
 * on). Source mode only. The parser is the one `workflow_run` uses, so the editor and a run never
 * disagree about a file.
 */
import { type Diagnostic, linter, lintGutter, lintKeymap } from '@codemirror/lint';
import type { Extension, Text } from '@codemirror/state';
import { keymap } from '@codemirror/view';
import type { TextKindView } from '@vmark/sdk';
import { actionHints, type ActionHint } from '../src/workflow/action-hints.js';
import { parseWorkflow } from '../src/workflow/parse-workflow.js';
import type { WorkflowDiagnostic } from '../src/workflow/workflow-ir.js';

/** A workflow diagnostic over its whole line; the source tag is the code a reader can look up. */
function onItsLine(doc: Text, diagnostic: WorkflowDiagnostic | ActionHint): Diagnostic {
  const line = doc.line(Math.min(Math.max(diagnostic.line, 1), doc.lines));
  return {
    from: line.from,
    to: line.to,
    severity: diagnostic.severity,
    source: diagnostic.code,
    message: diagnostic.message,
  };
}

const workflowDiagnostics = linter(
  (view) => {
    const doc = view.state.doc;
    const result = parseWorkflow(doc.toString());
    // A file that parses may still hold actions a run cannot do by itself: say so too.
    const found = result.ok
      ? [...result.warnings, ...actionHints(result.workflow)]
      : [...result.errors, ...result.warnings];
    return found.map((d) => onItsLine(doc, d));
  },
  { delay: 250 },
);

export const view: TextKindView<Extension> = {
  type: 'text',
  extensions: () => [workflowDiagnostics, lintGutter(), keymap.of(lintKeymap)],
};
