/**
 * A terminal command a plugin adds to `vmark` (`vmark <name> …`), for what a person must do
 * by hand — e.g. grant an AI client a delegation. It runs in a short-lived host of its own,
 * with no MCP connection and no workspace open.
 */
export interface CommandIo {
  /** Standard output: the command's answer (JSON when the person asked for it). */
  out(text: string): void;
  /** Standard error: notes and problems. */
  err(text: string): void;
  /** The folder the command was run in; relative paths on its command line are relative to it. */
  readonly cwd: string;
}

export interface CliCommand {
  /** What follows `vmark`; declared in the manifest's `contributes.commands`. */
  readonly name: string;
  /**
   * Runs the command with the arguments after its name.
   * @returns the exit code: 0 done, 1 failed, 2 the command line was wrong.
   */
  run(argv: readonly string[], io: CommandIo): Promise<number>;
}
