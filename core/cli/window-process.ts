import { spawn } from 'node:child_process';

/** How the window program ended. */
export interface WindowExit {
  /** Its exit code; 0 when it was closed by the signal this process passed on, 1 when killed otherwise. */
  readonly code: number;
  /** The signal that ended it, if one did. */
  readonly signal: NodeJS.Signals | null;
  /** The last lines it wrote on stderr, to say why it failed; null when it wrote to this terminal's. */
  readonly stderrTail: string | null;
}

/** Enough of a program's stderr to hold its last words, not a whole session of log lines. */
const TAIL_BYTES = 4096;
const TAIL_LINES = 12;

/**
 * Runs the window program until it exits; SIGINT or SIGTERM closes it first. Its stderr is
 * either shared (`inherit`: Electron, whose shell is vmark's own) or kept in a bounded tail
 * (`tail`: Chromium, which logs freely while it runs well and says why when it does not).
 */
export function runWindow(
  command: string,
  args: readonly string[],
  stderr: 'inherit' | 'tail',
): Promise<WindowExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: [
        'ignore',
        stderr === 'inherit' ? 'inherit' : 'ignore',
        stderr === 'inherit' ? 'inherit' : 'pipe',
      ],
    });
    let tail = Buffer.alloc(0);
    let cut = false;
    child.stderr?.on('data', (chunk: Buffer) => {
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > TAIL_BYTES) {
        tail = tail.subarray(tail.length - TAIL_BYTES);
        cut = true;
      }
    });
    const close = () => child.kill('SIGTERM');
    process.once('SIGINT', close);
    process.once('SIGTERM', close);
    const settle = () => {
      process.off('SIGINT', close);
      process.off('SIGTERM', close);
    };
    child.once('error', (error) => {
      settle();
      reject(new Error(`could not start ${command}: ${error.message}`));
    });
    // `close`, not `exit`: the tail is complete only once stderr has ended.
    child.once('close', (code, signal) => {
      settle();
      resolve({
        code: code ?? (signal === 'SIGTERM' ? 0 : 1),
        signal,
        stderrTail: stderr === 'inherit' ? null : lastLines(tail.toString('utf8'), cut),
      });
    });
  });
}

/** The last lines of `text`; when its start was cut off, its first (partial) line goes too. */
function lastLines(text: string, cut: boolean): string {
  const lines = text
    .split('\n')
    .slice(cut ? 1 : 0)
    .filter((line) => line.trim() !== '');
  return lines.slice(-TAIL_LINES).join('\n');
}
