import { parseArgs } from 'node:util';
import { UsageError } from './usage.js';

export interface VerbArgs {
  /** The sub-command (`list`, `allow`, …), or undefined when none was given. */
  readonly verb: string | undefined;
  /** Its one operand (a plugin, approval or checkpoint id), if any. */
  readonly id: string | undefined;
  readonly json: boolean;
  /** `--file PATH`, for commands that filter by file. */
  readonly file: string | undefined;
}

/** `vmark <command> <verb> [ID] [--json] [--file PATH]`: the shape every management command shares. */
export function parseVerbArgs(argv: string[], options: { file?: boolean } = {}): VerbArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { json: { type: 'boolean' }, ...(options.file ? { file: { type: 'string' as const } } : {}) },
    allowPositionals: true,
    strict: true,
  });
  const [verb, id, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
  const file = 'file' in values && typeof values.file === 'string' ? values.file : undefined;
  return { verb, id, json: values.json === true, file };
}
