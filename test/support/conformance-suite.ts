import { execFile } from 'node:child_process';
import { access, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO } from './cli.js';

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`), which needs Node 22
 * (it calls `fs.globSync`). Both come from npm, pinned: the `node` package brings a Node 22 binary.
 * They are installed once into `node_modules/.cache` (which `npm ci` clears), apart from the
 * project's own dependencies, so that nothing else of the project ever runs on that Node.
 */
const CONFORMANCE = '@modelcontextprotocol/conformance@0.1.16';
const NODE_22 = 'node@22.23.3';
const DIR = path.join(REPO, 'node_modules/.cache/vmark-conformance', '0.1.16-22.23.3');
const NODE_BIN = path.join(DIR, 'node_modules/node/bin/node');
const SUITE_CLI = path.join(DIR, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

const run = promisify(execFile);

export interface ConformanceCheck {
  readonly id: string;
  readonly name: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly errorMessage?: string;
}

export interface ScenarioResult {
  readonly scenario: string;
  /** The suite's own verdict: its exit code. */
  readonly passed: boolean;
  readonly checks: readonly ConformanceCheck[];
  readonly output: string;
}

/** Installs the suite and its Node where they are not yet (a first run needs the npm registry). */
export async function installConformanceSuite(): Promise<void> {
  // Both, so that an install cut short (the Node binary comes in a preinstall script) is redone.
  if ((await exists(NODE_BIN)) && (await exists(SUITE_CLI))) return;
  await mkdir(DIR, { recursive: true });
  // `--prefix` makes DIR a project of its own; npm's variables from a surrounding `npm test` must
  // not point it back at the repository.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  await run(
    'npm',
    [
      'install',
      '--prefix',
      DIR,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      NODE_22,
      CONFORMANCE,
    ],
    { env, maxBuffer: 16 * 1024 * 1024 },
  );
}

/** Runs one server scenario against `url` and returns the suite's verdict and checks. */
export async function runServerScenario(url: string, scenario: string): Promise<ScenarioResult> {
  const out = await mkdtemp(path.join(os.tmpdir(), 'vmark-conformance-'));
  try {
    const outcome = await run(NODE_BIN, [
      SUITE_CLI,
      'server',
      '--url',
      url,
      '--scenario',
      scenario,
      '-o',
      out,
    ]).then(
      ({ stdout, stderr }) => ({ passed: true, output: stdout + stderr }),
      (error: { stdout?: string; stderr?: string; code?: unknown }) => {
        // Exit code 1 is the suite's "a check failed"; anything else is the suite itself failing.
        if (error.code !== 1) throw error;
        return { passed: false, output: `${error.stdout ?? ''}${error.stderr ?? ''}` };
      },
    );
    const [resultDir] = await readdir(out);
    const checks =
      resultDir === undefined
        ? []
        : (JSON.parse(
            await readFile(path.join(out, resultDir, 'checks.json'), 'utf8'),
          ) as ConformanceCheck[]);
    return { scenario, ...outcome, checks };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
