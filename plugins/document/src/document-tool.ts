import type {
  ChangeOrigin,
  SaveOutcome,
  DocumentStore,
  Settings,
  ToolCall,
  ToolDefinition,
  Workbench,
} from '@vmark/sdk';
import { TRANSFORM_KINDS } from './cjk/transform-kind.js';
import {
  defineAction,
  defineTool,
  DomainError,
  oneOf,
  optionalBoolean,
  optionalId,
  requiredString,
  revisionArg,
  staleError,
  z,
} from '@vmark/sdk';

const originOf = (call: ToolCall): ChangeOrigin => ({
  kind: 'mcp',
  caller: call.caller,
  tool: call.tool,
  action: call.action,
});

export function documentTool(
  workbench: Workbench,
  documents: DocumentStore,
  settings: Settings,
): ToolDefinition {
  return defineTool({
    name: 'document',
    title: 'VMark Document Read/Write',
    description:
      'Read and write whole documents (markdown and workflow YAML alike). read → {content, revision, filePath, kind, dirty}; ' +
      'write replaces the whole text and saves it (save: false keeps it in the editor only). Always pass the revision ' +
      'from your last read as expected_revision: a STALE error means the document changed since — re-read, never ' +
      "write the stale content back. transform applies a CJK rewrite (cjk-format with the user's settings, " +
      'cjk-spacing, cjk-punctuation) to the whole document, leaving code, links, HTML and math alone → {revision}. ' +
      'tabId defaults to the focused tab.',
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
        run: async ({ tabId, content, expected_revision, save }, call): Promise<SaveOutcome> => {
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
      transform: defineAction({
        args: {
          tabId: optionalId('tabId', 'tab'),
          kind: oneOf('kind', TRANSFORM_KINDS),
          expected_revision: revisionArg(),
        },
        run: async ({ tabId, kind, expected_revision }, call): Promise<SaveOutcome> => {
          const tab = workbench.resolveTab(tabId);
          const document = documents.get(tab.documentId);
          if (expected_revision !== undefined && expected_revision !== document.revision) {
            throw staleError(document.revision);
          }
          // Loaded on first use: the Markdown parser it needs would otherwise cost every start-up.
          const cjk = await import('./cjk/index.js');
          const options = settings.get('cjkFormatting', cjk.cjkFormattingSchema, cjk.DEFAULT_CJK_FORMATTING);
          let next: string;
          try {
            next = cjk.applyTransform(kind, document.content, options);
          } catch (error) {
            if (error instanceof cjk.CjkIntegrityError) throw new DomainError('INTERNAL', error.message);
            throw error;
          }
          // Unchanged text keeps its revision: nothing happened.
          if (next === document.content) return { revision: document.revision, saved: !document.dirty };
          const origin = { ...originOf(call), description: `Applied ${kind}` };
          const written = await documents.replace(document.id, next, {
            expectedRevision: document.revision,
            origin,
          });
          return documents.trySave(written.id);
        },
      }),
    },
  });
}
