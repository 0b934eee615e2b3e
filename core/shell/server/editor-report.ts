import type { HostDocumentStore } from '../../documents/document-store.js';
import type { HostWorkbench } from '../../workbench/workbench.js';
import type { EditorReport } from '../../protocol/protocol.js';
import type { DocumentAuthority } from './document-authority.js';
import type { FocusedEditor } from '../../workbench/focused-editor.js';

export interface EditorReportServices {
  readonly workbench: HostWorkbench;
  readonly documents: HostDocumentStore;
  readonly authority: DocumentAuthority;
  readonly focusedEditor: FocusedEditor;
}

/**
 * Takes a page's report of the editor it shows. Positions made at an older
 * version than the host's count in a text the host no longer has: such a
 * report is refused, and the page, which has those updates coming, reports
 * again once it has applied them.
 * @throws DomainError `INVALID_TAB`; ArgumentError for positions outside the text.
 */
export function acceptEditorReport(
  page: object,
  report: EditorReport | null,
  { workbench, documents, authority, focusedEditor }: EditorReportServices,
): { accepted: boolean } {
  if (report === null) {
    focusedEditor.report(page, null);
    return { accepted: true };
  }
  const documentId = workbench.resolveTab(report.tabId).documentId;
  if (report.version !== authority.version(documentId)) return { accepted: false };
  // Sent on every cursor move: the length is read from the store's text, its string not built.
  focusedEditor.report(page, {
    ...report,
    documentId,
    revision: documents.get(documentId).revision,
    length: documents.textOf(documentId).length,
  });
  return { accepted: true };
}
