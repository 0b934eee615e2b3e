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
import { documentWindow, lengthArg, offsetArg, SUGGESTED_WINDOW } from './read-window.js';
import {
  defineAction,
  defineTool,
  DomainError,
  listedValue,
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
    instructions:
      'Edit with revisions: `document.read` returns a `revision`; pass it as `expected_revision` to `document.write`. ' +
      'A STALE error means the document changed since your read (a person typed, another client wrote): re-read, then retry; ' +
      'never write the stale content back. Use `document.write` for markdown tabs.',
    title: 'VMark Document Read/Write',
    description:
      'Read and write whole documents (markdown and workflow YAML alike). read → {content, revision, filePath, kind, dirty}; ' +
      `a document too large to read whole is read in windows: read {offset, length} (UTF-16 code units; length ${SUGGESTED_WINDOW} ` +
      'fits) → {content, revision, offset, length, total_length, next_offset?}; a window is no basis for write, which ' +
      'replaces the whole text: change a part with selection.set, or write only a text you read whole. ' +
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
      // A window (read with offset or length) leaves disk_content out.
      conflict: z.object({
        reason: z.string(),
        message: z.string(),
        disk_content: z.string().nullable().optional(),
      }),
      offset: z.number(),
      length: z.number(),
      total_length: z.number(),
      next_offset: z.number(),
      window_note: z.string(),
      saved: z.boolean(),
      save_skipped: z.string(),
      save_error: z.string(),
      error: z.string(),
      message: z.string(),
      current_revision: z.string(),
    },
    actions: {
      read: defineAction({
        args: { tabId: optionalId('tabId', 'tab'), offset: offsetArg, length: lengthArg },
        truncationRecovery:
          'do not write back from this read — the unread remainder would be destroyed. Read the document in ' +
          `windows instead: \`document.read\` with \`offset: 0, length: ${SUGGESTED_WINDOW}\`, then with ` +
          '`offset: next_offset` until no next_offset comes back. A window is no basis for a whole ' +
          '`document.write` either: use `selection.get` on the part the user selected, or edit with `selection.set`.',
        run: ({ tabId, offset, length }, call) => {
          const tab = workbench.resolveTab(tabId);
          if (offset !== undefined || length !== undefined) {
            const document = documents.read(tab.documentId, originOf(call), { whole: false });
            return documentWindow(document, offset ?? 0, length);
          }
          const { content, revision, filePath, kind, dirty, conflict } = documents.read(
            tab.documentId,
            originOf(call),
          );
          if (!conflict) return { content, revision, filePath, kind, dirty };
          const { reason, message, diskContent } = conflict;
          return {
            content,
            revision,
            filePath,
            kind,
            dirty,
            conflict: { reason, message, disk_content: diskContent },
          };
        },
      }),
      write: defineAction({
        args: {
          tabId: optionalId('tabId', 'tab'),
          content: requiredString('content'),
          expected_revision: revisionArg(),
          save: optionalBoolean('save'),
        },
        run: ({ tabId, content, expected_revision, save }, call): Promise<SaveOutcome> =>
          documents.write(workbench.resolveTab(tabId).documentId, content, {
            expectedRevision: expected_revision,
            origin: originOf(call),
            save: save !== false,
          }),
      }),
      transform: defineAction({
        args: {
          tabId: optionalId('tabId', 'tab'),
          // An unknown kind is the seed's INTERNAL envelope, not a plain argument error (vmark-notes §2.3).
          kind: listedValue('kind', TRANSFORM_KINDS, 'INTERNAL'),
          expected_revision: revisionArg(),
        },
        run: async ({ tabId, kind, expected_revision }, call): Promise<SaveOutcome> => {
          const tab = workbench.resolveTab(tabId);
          const document = documents.get(tab.documentId);
          if (expected_revision !== undefined && expected_revision !== document.revision) {
            throw staleError(document.revision);
          }
          // The transforms protect Markdown's code, links and markup; in JSON or YAML they would break the syntax.
          if (document.kind !== 'markdown') {
            throw new DomainError(
              'INTERNAL',
              `transform rewrites Markdown documents only; this tab is of kind "${document.kind}"`,
            );
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
          // A rewrite of this document alone: not made from what the client read before it.
          const origin = { ...originOf(call), description: `Applied ${kind}`, derivedFromReads: false };
          return documents.write(document.id, next, {
            expectedRevision: document.revision,
            origin,
            save: true,
          });
        },
      }),
    },
  });
}
