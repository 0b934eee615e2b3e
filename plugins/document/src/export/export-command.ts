/**
 * Export from a terminal and from the editor (ADR 75).
 *
 * - `vmark export FILE --to html|pdf [--out PATH] [--workspace DIR]`: writes `FILE`'s name with
 *   the format's extension beside it, or `--out`; never over an existing file (exit 1, said on
 *   stderr). Images are inlined from `--workspace` (default: the note's folder) only.
 * - The editor commands "Export to HTML" and "Export to PDF": the tab's note as the editor holds
 *   it (unsaved edits included), written beside it under the first free name (`note.html`,
 *   `note 1.html`, …), so nothing is overwritten and nobody needs asking.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type CliCommand,
  defineCommandLine,
  DomainError,
  type DocumentStore,
  type EditorCommandHandler,
  runCommandLine,
  type Vault,
  type Workbench,
} from '@vmark/sdk';
import {
  besideNote,
  ExportFailed,
  exportNote,
  type ExportFormat,
  freeName,
  writeExport,
} from './export-note.js';
import { folderScope, vaultScope } from './export-scope.js';

export const EXPORT_COMMAND_LINE = defineCommandLine({
  command: 'vmark export',
  options: {
    to: {
      type: 'string',
      value: 'html|pdf',
      description: 'the format: a self-contained HTML file, or a PDF',
    },
    out: {
      type: 'string',
      value: 'PATH',
      description: 'where to write it (default: beside FILE); never overwritten',
    },
    workspace: {
      type: 'string',
      value: 'DIR',
      description: 'the folder images may be inlined from (default: the folder of FILE)',
    },
  },
  forms: [
    {
      operands: ['FILE'],
      required: ['to'],
      options: ['out', 'workspace'],
      description: 'export a Markdown note to HTML (images inlined) or PDF (printed by Chromium)',
    },
  ],
});

export function exportCommand(home: string): CliCommand {
  return {
    name: 'export',
    run: (argv, io) =>
      runCommandLine(EXPORT_COMMAND_LINE, argv, io, async ({ operands, values }) => {
        const format = values.to;
        if (format !== 'html' && format !== 'pdf') {
          io.err(`vmark export: --to must be html or pdf, not ${JSON.stringify(format)}\n`);
          return 2;
        }
        const note = path.resolve(io.cwd, operands[0]!);
        try {
          const text = await readFile(note, 'utf8').catch(() => {
            throw new ExportFailed(`cannot read ${JSON.stringify(note)}`);
          });
          const out = values.out === undefined ? besideNote(note, format) : path.resolve(io.cwd, values.out);
          const scope = await folderScope(
            values.workspace === undefined ? path.dirname(note) : path.resolve(io.cwd, values.workspace),
            note,
            home,
          ).catch(() => {
            throw new ExportFailed(`cannot use ${JSON.stringify(values.workspace)} as the workspace`);
          });
          await writeExport(out, await exportNote(text, note, format, scope), false);
          io.out(`${JSON.stringify({ exported: out, format })}\n`);
          return 0;
        } catch (error) {
          if (!(error instanceof ExportFailed)) throw error;
          io.err(`vmark export: ${error.message}\n`);
          return 1;
        }
      }),
  };
}

/** The editor command exporting the tab's note to `format`. */
export function exportEditorCommand(
  format: ExportFormat,
  workbench: Workbench,
  documents: DocumentStore,
  vault: Vault,
): EditorCommandHandler {
  return async ({ tabId }) => {
    if (tabId === null) throw new DomainError('INVALID_TAB', 'No tab is open to export');
    const document = documents.get(workbench.resolveTab(tabId).documentId);
    if (document.kind !== 'markdown')
      throw new DomainError(
        'INVALID_TAB',
        `Only Markdown is exported; this tab is of kind "${document.kind}"`,
      );
    if (document.filePath === null)
      throw new DomainError('INVALID_TAB', 'Save the note first: the export is written beside it');
    try {
      const target = await freeName(besideNote(document.filePath, format));
      // The target's folder is the note's, in the scope; the path guard says so once more.
      await vault.resolve(target);
      const data = await exportNote(
        document.content,
        document.filePath,
        format,
        vaultScope(vault, document.filePath),
      );
      await writeExport(target, data, false);
      return `Exported to ${target}`;
    } catch (error) {
      if (error instanceof ExportFailed) throw new DomainError('INTERNAL', error.message);
      throw error;
    }
  };
}
