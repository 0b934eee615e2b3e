import type { CommandIo } from '@vmark/sdk';

/** The terminal a command was run from: answers on stdout, notes and problems on stderr. */
export function terminalIo(): CommandIo {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
  };
}
