export type { ValidateOptions, ValidationEngine, ValidationResult, WorkflowDiagnostic } from './types.js';
export {
  createWorkflowValidator,
  validateWorkflow,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_TIMEOUT_MS,
  NOT_AVAILABLE,
  type ValidatorDependencies,
  type WorkflowValidator,
} from './validator.js';
export { loadActionlintPackage, type ActionlintWasmModule, type WasmModuleLoader } from './wasm-engine.js';
export { NEWER_RUNNER_LABELS, dropNewerRunnerLabelFalsePositives } from './runner-labels.js';
export { ACTIONLINT_ENV } from './native-binary-lookup.js';
export { actionlintArgs } from './native-binary-run.js';
export { linterFileName } from './linter-path.js';
