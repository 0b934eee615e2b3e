import type { ChangeOrigin, DocumentStore, ToolCall, ToolDefinition, Workbench } from '@vmark/sdk';
import {
  defineAction,
  defineTool,
  optionalBoolean,
  optionalId,
  requiredString,
  revisionArg,
  z,
} from '@vmark/sdk';

/** What document.write reports about persisting the new text. */
export interface WriteResult {
  revision: string;
  saved: boolean;
  save_skipped?: 'opt_out' | 'untitled';
  save_error?: string;
}

const originOf = (call: ToolCall): ChangeOrigin => ({
  kind: 'mcp',
  caller: call.caller,
  tool: call.tool,
  action: call.action,
});

export function documentTool(workbench: Workbench, documents: DocumentStore): ToolDefinition {
  return defineTool({
    name: 'document',
    title: 'VMark Document Read/Write',
    description:
      'Read and write whole documents (markdown and workflow YAML alike). read → {content, revision, filePath, kind, dirty}; ' +
      'write replaces the whole text and saves it (save: false keeps it in the editor only). Always pass the revision ' +
      'from your last read as expected_revision: a STALE error means the document changed since — re-read, never ' +
      'write the stale content back. tabId defaults to the focused tab.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    outputSchema: {
      content: z.string(),
      revision: z.string(),
      filePath: z.string().nullable(),
      kind: z.string(),
      dirty: z.boolean(),
      conflict: z.object({ reason: z.string(), message: z.string() }),
      saved: z.boolean(),
      save_skipped: z.string(),
      save_error: z.string(),
      error: z.string(),
      message: z.string(),
      current_revision: z.string(),
    },
    actions: {
      read: defineAction({
        args: { tabId: optionalId('tabId', 'tab') },
        truncationRecovery:
          'do not write back from this read — the unread remainder would be destroyed. Use `selection.get` on the ' +
          'part the user selected, or edit with `selection.set`.',
        run: ({ tabId }, call) => {
          const tab = workbench.resolveTab(tabId);
          const { content, revision, filePath, kind, dirty, conflict } = documents.read(
            tab.documentId,
            originOf(call),
          );
          return { content, revision, filePath, kind, dirty, ...(conflict && { conflict }) };
        },
      }),
      write: defineAction({
        args: {
          tabId: optionalId('tabId', 'tab'),
          content: requiredString('content'),
          expected_revision: revisionArg(),
          save: optionalBoolean('save'),
        },
        run: async ({ tabId, content, expected_revision, save }, call): Promise<WriteResult> => {
          const tab = workbench.resolveTab(tabId);
          const written = await documents.replace(tab.documentId, content, {
            expectedRevision: expected_revision,
            origin: originOf(call),
          });
          if (save === false) return { revision: written.revision, saved: false, save_skipped: 'opt_out' };
          if (written.filePath === null)
            return { revision: written.revision, saved: false, save_skipped: 'untitled' };
          if (!written.dirty) return { revision: written.revision, saved: true };
          try {
            const saved = await documents.save(tab.documentId);
            return { revision: saved.revision, saved: !saved.dirty };
          } catch (error) {
            // The new text stays in the buffer (dirty), so nothing is lost; the file is untouched.
            const reason = error instanceof Error ? error.message : String(error);
            return { revision: written.revision, saved: false, save_error: reason };
          }
        },
      }),
    },
  });
}
