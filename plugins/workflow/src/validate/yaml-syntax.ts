import { LineCounter, parseAllDocuments, visit } from 'yaml';
import type { WorkflowDiagnostic } from './types.js';

/**
 * Where the text is not YAML, from the `yaml` parser: one diagnostic per error, at its line and
 * column (1-based, as actionlint counts). Empty for text that parses. Duplicate keys and other
 * workflow-level problems are left to actionlint; so is a second document in the stream, which
 * actionlint ignores. An alias whose anchor is not defined before it counts, since actionlint's
 * YAML reader refuses one.
 */
export function yamlSyntaxDiagnostics(text: string): WorkflowDiagnostic[] {
  const lines = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  const found: { offset: number; message: string }[] = [];
  for (const document of documents) {
    for (const error of document.errors) found.push({ offset: error.pos[0], message: error.message });
    visit(document, {
      Alias(_key, alias) {
        if (alias.resolve(document) === undefined) {
          found.push({
            offset: alias.range?.[0] ?? 0,
            message: `alias *${alias.source} refers to no anchor &${alias.source} defined before it`,
          });
        }
      },
    });
  }
  return found
    .sort((a, b) => a.offset - b.offset)
    .map(({ offset, message }) => {
      const { line, col } = lines.linePos(offset);
      return {
        line,
        col,
        message: `could not parse as YAML: ${message}`,
        severity: 'error',
        kind: 'syntax-check',
      };
    });
}
