import type {
  ChangeOrigin,
  DocumentSnapshot,
  DocumentStore,
  EditorMode,
  Editors,
  LiveEditor,
  TabRef,
  ToolCall,
  ToolDefinition,
  Workbench,
} from '@vmark/sdk';
import {
  defineAction,
  defineTool,
  DomainError,
  isDomainError,
  optionalId,
  requiredString,
  revisionArg,
  staleError,
  z,
} from '@vmark/sdk';
import { describeSelectionChange } from './selection/describe-selection-change.js';
import { wysiwygInsertion } from './selection/wysiwyg-insertion.js';

const originOf = (call: ToolCall, description?: string): ChangeOrigin => ({
  kind: 'mcp',
  caller: call.caller,
  tool: call.tool,
  action: call.action,
  ...(description !== undefined && { description }),
});

const NO_EDITOR: Readonly<Record<EditorMode, string>> = {
  wysiwyg: 'No active WYSIWYG editor for the focused tab',
  source: 'No active source editor for the focused tab',
};

/** The selected text, without building the whole text of a large note where the host can. */
const sliceOf = (document: DocumentSnapshot, from: number, to: number): string =>
  document.slice?.(from, to) ?? document.content.slice(from, to);

/**
 * `selection` (vmark-notes §2.4): the person's selection in the editor of the
 * focused tab, read and replaced host-side. Positions are offsets into the
 * Markdown source in both modes (ADR 19); the change lands as one store
 * write, which the editor receives as one undoable update.
 */
export function selectionTool(
  workbench: Workbench,
  documents: DocumentStore,
  editors: Editors,
): ToolDefinition {
  /** The focused tab and the live editor showing it. @throws INVALID_TAB, NO_EDITOR. */
  const focusedEditor = (tabId: string | undefined): { tab: TabRef; editor: LiveEditor } => {
    const tab = focusedTab();
    if (tab === null || (tabId !== undefined && tabId !== tab.id)) {
      throw new DomainError('INVALID_TAB', 'tabId could not be resolved');
    }
    const editor = editors.focused();
    if (editor === null || editor.tabId !== tab.id) {
      throw new DomainError('NO_EDITOR', NO_EDITOR[editor?.mode ?? 'wysiwyg']);
    }
    return { tab, editor };
  };
  const focusedTab = (): TabRef | null => {
    try {
      return workbench.resolveTab();
    } catch (error) {
      if (isDomainError(error) && error.code === 'INVALID_TAB') return null;
      throw error;
    }
  };
  /** The editor's selection must count in the text as it is now. */
  const checkCurrent = (editor: LiveEditor, revision: string): void => {
    if (editor.revision !== revision) {
      throw new DomainError('BUSY', 'The editor has not caught up with the latest change yet; retry shortly');
    }
  };

  return defineTool({
    name: 'selection',
    title: 'VMark Editor Selection',
    description:
      "Read or replace the user's current selection in the editor of the focused tab — cheap, targeted edits on " +
      'large documents without the whole-document round trip of document.read/document.write. get → {text, ' +
      'isEmpty, range, mode, kind, tabId, revision}: text is the selected Markdown source ("" for a cursor), range ' +
      'the offsets into the Markdown source in both modes. set {content, expected_revision} replaces the selection ' +
      '(empty content deletes it; a cursor inserts there) → {revision, replaced_chars}. In wysiwyg mode plain text ' +
      'stays literal (Markdown characters are escaped) and Markdown-looking text is inserted as Markdown; in source ' +
      'mode content is spliced as is. Pass the revision from get as expected_revision: STALE means the user typed ' +
      'since — re-read. The edit lands on the selection at call time. tabId, if given, must be the focused tab ' +
      '(INVALID_TAB otherwise); NO_EDITOR when no editor shows it.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    outputSchema: {
      text: z.string(),
      isEmpty: z.boolean(),
      range: z.object({ from: z.number(), to: z.number() }),
      mode: z.string(),
      kind: z.string(),
      tabId: z.string(),
      revision: z.string(),
      replaced_chars: z.number(),
      error: z.string(),
      message: z.string(),
      current_revision: z.string(),
    },
    actions: {
      get: defineAction({
        args: { tabId: optionalId('tabId', 'tab') },
        truncationRecovery:
          'the selection is larger than one result can carry: ask the user to select a smaller part, then call ' +
          '`selection.get` again.',
        run: ({ tabId }, call) => {
          const { tab, editor } = focusedEditor(tabId);
          const document = documents.read(tab.documentId, originOf(call));
          checkCurrent(editor, document.revision);
          const { from, to } = editor.selection;
          return {
            text: sliceOf(document, from, to),
            isEmpty: from === to,
            range: { from, to },
            mode: editor.mode,
            kind: document.kind,
            tabId: tab.id,
            revision: document.revision,
          };
        },
      }),
      set: defineAction({
        args: {
          tabId: optionalId('tabId', 'tab'),
          content: requiredString('content'),
          expected_revision: revisionArg(),
        },
        run: async ({ tabId, content, expected_revision }, call) => {
          const { tab, editor } = focusedEditor(tabId);
          const document = documents.get(tab.documentId);
          if (expected_revision !== undefined && expected_revision !== document.revision) {
            throw staleError(document.revision);
          }
          checkCurrent(editor, document.revision);
          const { from, to } = editor.selection;
          const selected = sliceOf(document, from, to);
          const insertion =
            editor.mode === 'wysiwyg' ? wysiwygInsertion(document.content, { from, to }, content) : content;
          const written = await documents.replaceRange(
            document.id,
            { from, to, insert: insertion },
            {
              expectedRevision: document.revision,
              origin: originOf(call, describeSelectionChange(selected, insertion)),
            },
          );
          return { revision: written.revision, replaced_chars: selected.length };
        },
      }),
    },
  });
}
