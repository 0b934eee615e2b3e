import type { DocumentStore, EditorCommandHandler, Settings, Workbench } from '@vmark/sdk';
import { DomainError } from '@vmark/sdk';

/**
 * The editor command "Format CJK text" (ADR 61): `document.transform`'s cjk-format, with the
 * person's settings, on the tab the command was run in. A person's own edit: it lands in the
 * buffer, unsaved and undoable, as their typing would; saving it is theirs.
 */
export function formatCjkCommand(
  workbench: Workbench,
  documents: DocumentStore,
  settings: Settings,
): EditorCommandHandler {
  return async ({ tabId }) => {
    if (tabId === null) throw new DomainError('INVALID_TAB', 'No tab is open to format');
    const document = documents.get(workbench.resolveTab(tabId).documentId);
    if (document.kind !== 'markdown')
      throw new DomainError(
        'INVALID_TAB',
        `Only Markdown is formatted; this tab is of kind "${document.kind}"`,
      );
    // Loaded on first use, as document.transform does: the parser it needs would cost every start-up.
    const cjk = await import('./cjk/index.js');
    const options = settings.get('cjkFormatting', cjk.cjkFormattingSchema, cjk.DEFAULT_CJK_FORMATTING);
    const next = cjk.applyTransform('cjk-format', document.content, options);
    if (next === document.content) return 'The CJK text is already formatted: nothing changed';
    await documents.replace(document.id, next, {
      expectedRevision: document.revision,
      origin: { kind: 'editor' },
    });
    return 'Formatted the CJK text (not saved yet)';
  };
}
