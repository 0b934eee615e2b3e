import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { parseActionlintOutput } from './actionlint-json.js';
import { describeError } from './describe-error.js';
import type { WorkflowDiagnostic } from './types.js';

export interface NativeRunOptions {
  /** Directory actionlint runs in; it looks for `.github/actionlint.yaml` from there. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  timeoutMs: number;
  /** Cap on stdout; a larger report is refused rather than buffered without bound. */
  maxOutputBytes: number;
}

export interface NativeLintOutcome {
  diagnostics: WorkflowDiagnostic[];
  error?: string;
  /** The executable could not be started at all (removed, or no longer executable since lookup). */
  notStarted?: boolean;
}

/** Enough of stderr to explain a failure; the rest is dropped as it arrives. */
const MAX_STDERR_BYTES = 16 * 1024;

/**
 * Arguments for linting stdin. Go's flag package stops at the first non-flag argument, so every flag
 * comes before the final `-` (which makes actionlint read the workflow from stdin). `-stdin-filename`
 * (actionlint ≥ 1.6.14) names the input in the report and for `paths:` in actionlint.yaml.
 */
export function actionlintArgs(fileName: string): string[] {
  return ['-format', '{{json .}}', '-no-color', '-stdin-filename', fileName, '-'];
}

function firstLines(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const joined = lines.slice(0, 3).join('; ');
  return joined.length > 500 ? `${joined.slice(0, 500)}…` : joined;
}

/**
 * Runs the actionlint executable on `text` (given on stdin, never on a command line or through a
 * shell) and reads its JSON report.
 *
 * Exit statuses (actionlint docs): 0 no problem, 1 problems found, 2 bad command-line option,
 * 3 fatal error. 0 and 1 with a JSON report are answers. Anything else, or a report that is not
 * actionlint's JSON, is an `error` with engine `native`: the binary the user installed failed, and
 * quietly answering from the old WebAssembly rules instead would hide that and could contradict the
 * binary's own, newer verdict. Never rejects.
 */
export function runActionlintBinary(
  binary: string,
  text: string,
  fileName: string,
  options: NativeRunOptions,
): Promise<NativeLintOutcome> {
  return new Promise((resolve) => {
    // Its own process group on POSIX, so a timeout also stops the shellcheck/pyflakes processes
    // actionlint starts for `run:` scripts.
    const ownGroup = options.platform !== 'win32';
    let child: ChildProcessWithoutNullStreams;
    try {
      // stdio defaults to three pipes.
      child = spawn(binary, actionlintArgs(fileName), {
        cwd: options.cwd,
        env: options.env,
        windowsHide: true,
        detached: ownGroup,
      });
    } catch (error) {
      resolve({
        diagnostics: [],
        error: `could not run actionlint at ${binary}: ${describeError(error)}`,
        notStarted: true,
      });
      return;
    }

    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    const stderr: Buffer[] = [];
    let stderrBytes = 0;
    let failure: string | null = null;
    let settled = false;

    const kill = (): void => {
      try {
        if (ownGroup && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      failure ??= `actionlint did not finish within ${options.timeoutMs} ms`;
      kill();
    }, options.timeoutMs);
    const settle = (outcome: NativeLintOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };

    child.stdout.on('data', (chunk: Buffer) => {
      if (failure !== null) return;
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.maxOutputBytes) {
        failure = `actionlint printed more than ${options.maxOutputBytes} bytes; its report was discarded`;
        stdout.length = 0;
        kill();
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderrBytes >= MAX_STDERR_BYTES) return;
      stderr.push(chunk.subarray(0, MAX_STDERR_BYTES - stderrBytes));
      stderrBytes += chunk.length;
    });
    // EPIPE when actionlint exits before reading all of stdin (e.g. it rejected a flag): the exit
    // status explains that better than the write error.
    child.stdin.on('error', () => undefined);

    child.on('error', (error: NodeJS.ErrnoException) => {
      kill();
      settle({
        diagnostics: [],
        error: `could not run actionlint at ${binary}: ${describeError(error)}`,
        notStarted: error.code === 'ENOENT' || error.code === 'EACCES',
      });
    });

    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      if (failure !== null) {
        settle({ diagnostics: [], error: failure });
        return;
      }
      const out = Buffer.concat(stdout).toString('utf8');
      const parsed = parseActionlintOutput(out);
      if (code === 0 && out.trim() === '') {
        settle({ diagnostics: [] });
        return;
      }
      if ((code === 0 || code === 1) && parsed !== null) {
        settle({ diagnostics: parsed });
        return;
      }
      const status = signal !== null ? `was stopped by ${signal}` : `exited with status ${code ?? 'unknown'}`;
      const report = parsed === null ? ' without a JSON report' : '';
      const detail = firstLines(Buffer.concat(stderr).toString('utf8'));
      // Keep any findings that did arrive: they are actionlint's, just not known to be complete.
      settle({
        diagnostics: parsed ?? [],
        error: `actionlint ${status}${report}${detail === '' ? '' : `: ${detail}`}`,
      });
    });

    child.stdin.end(text);
  });
}
