/**
 * A terminal command's command line, declared once: its forms (subcommands), their operands and
 * options. The parser and the help both come from the declaration, so `--help` shows exactly what
 * the parser accepts, and every command — vmark's own and a plugin's — words its mistakes alike:
 * `vmark: unknown option --bogus for vmark mcp`, followed by that command's usage.
 */
import type { CommandIo } from './command.js';

export interface CommandOption {
  /** `string` takes a value (`--port N`, `--port=N`); `boolean` is a switch (`--json`). */
  readonly type: 'string' | 'boolean';
  /** The value's name in the usage: `N`, `DIR`. */
  readonly value?: string;
  /** May be given more than once; the values are kept in order. */
  readonly multiple?: boolean;
  readonly description: string;
}

export type CommandOptions = Readonly<Record<string, CommandOption>>;

/** One way to call the command: `vmark plugins enable ID [--json]`. */
export interface CommandForm {
  /**
   * The subcommand (`list`, `allow`); absent for the command's own form. Several forms may share
   * one, told apart by their operands and required options (`revoke ID` / `revoke --all`).
   */
  readonly verb?: string;
  /** The operands that follow, by name (`ID`); each is required. */
  readonly operands?: readonly string[];
  /** Options the form requires (shown without brackets). */
  readonly required?: readonly string[];
  /** Options the form accepts besides the required ones. */
  readonly options?: readonly string[];
  readonly description: string;
}

export interface CommandLineSpec<O extends CommandOptions = CommandOptions> {
  /** What a person types before the arguments: `vmark serve`, `vmark coherence`. */
  readonly command: string;
  readonly forms: readonly CommandForm[];
  readonly options: O;
  /** Printed after the options (environment variables, where things are kept). */
  readonly notes?: string;
}

type ValueOf<T extends CommandOption> = T['type'] extends 'boolean'
  ? boolean
  : T['multiple'] extends true
    ? string[]
    : string;

export type CommandValues<O extends CommandOptions> = { -readonly [K in keyof O]?: ValueOf<O[K]> };

export interface ParsedCommandLine<O extends CommandOptions> {
  /** The form's subcommand; undefined for the command's own form. */
  readonly verb: string | undefined;
  /** `vmark plugins enable`: the command and verb, for messages. */
  readonly command: string;
  readonly operands: readonly string[];
  readonly values: CommandValues<O>;
}

const MISTAKE = Symbol.for('vmark.error.command-line');

/** A mistake in how a command was called: printed with that command's usage, exit code 2. */
export class CommandLineError extends Error {
  readonly [MISTAKE] = true;
  override readonly name = 'CommandLineError';
}

/** Recognises a `CommandLineError`, also from another copy of the SDK. */
export function isCommandLineError(error: unknown): error is CommandLineError {
  return typeof error === 'object' && error !== null && MISTAKE in error;
}

/** A form whose option names are checked against the declaration's options. */
type DeclaredForm<O extends CommandOptions> = CommandForm & {
  readonly required?: readonly (keyof O & string)[];
  readonly options?: readonly (keyof O & string)[];
};

/**
 * Keeps the option names' literal types, so that `values` is typed by the declaration, and checks
 * that every form names only declared options.
 */
export function defineCommandLine<const O extends CommandOptions>(
  spec: CommandLineSpec<O> & { readonly forms: readonly DeclaredForm<O>[] },
): CommandLineSpec<O> {
  return spec;
}

/**
 * Parses `argv` (the arguments after the command's words) against the declaration. Options may
 * come anywhere; `--` ends them. `-h` or `--help` anywhere, or a command of subcommands called
 * without one, asks for the help (`{help: true}`).
 * @throws CommandLineError
 */
export function parseCommandLine<O extends CommandOptions>(
  spec: CommandLineSpec<O>,
  argv: readonly string[],
): ParsedCommandLine<O> | { readonly help: true } {
  const values: Record<string, string | boolean | string[]> = {};
  const positionals: string[] = [];
  const given: string[] = [];
  const mistakes: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-h' || arg === '--help') return { help: true };
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const [flag, inline] = splitInline(arg);
    const name = flag.startsWith('--') ? flag.slice(2) : '';
    const option = Object.hasOwn(spec.options, name) ? spec.options[name] : undefined;
    if (option === undefined) {
      mistakes.push(`unknown option ${flag}`);
      continue;
    }
    let value: string | boolean;
    if (option.type === 'boolean') {
      if (inline !== undefined) mistakes.push(`option ${flag} takes no value`);
      value = true;
    } else if (inline !== undefined) {
      value = inline;
    } else if (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) {
      value = argv[++i]!;
    } else {
      mistakes.push(`missing value ${option.value ?? 'VALUE'} after ${flag}`);
      continue;
    }
    if (option.multiple) {
      const list = (values[name] ??= []) as string[];
      list.push(String(value));
    } else if (name in values) {
      mistakes.push(`option ${flag} given twice`);
    } else {
      values[name] = value;
    }
    given.push(name);
  }

  const verbs = spec.forms.filter((f) => f.verb !== undefined);
  const sameVerb = positionals.length > 0 ? verbs.filter((f) => f.verb === positionals[0]) : [];
  const named = sameVerb.length > 0 ? chooseForm(sameVerb, positionals.length - 1, given) : undefined;
  const own = spec.forms.find((f) => f.verb === undefined);
  if (named === undefined && own === undefined) {
    if (positionals.length === 0 && mistakes.length === 0) return { help: true };
    const problem = positionals.length === 0 ? mistakes[0]! : `unknown subcommand ${positionals[0]!}`;
    throw new CommandLineError(`${problem} for ${spec.command}`);
  }
  const form = (named ?? own)!;
  const command = form.verb === undefined ? spec.command : `${spec.command} ${form.verb}`;
  if (mistakes.length > 0) throw new CommandLineError(`${mistakes[0]!} for ${command}`);

  const operands = named ? positionals.slice(1) : positionals;
  const wanted = form.operands ?? [];
  if (operands.length < wanted.length)
    throw new CommandLineError(`missing ${wanted[operands.length]!} for ${command}`);
  if (operands.length > wanted.length) {
    const extra = operands[wanted.length]!;
    const problem =
      form.verb === undefined && verbs.length > 0 && wanted.length === 0
        ? `unknown subcommand ${extra}`
        : `unexpected argument ${extra}`;
    throw new CommandLineError(`${problem} for ${command}`);
  }
  const allowed = new Set<string>([...(form.required ?? []), ...(form.options ?? [])]);
  const stray = given.find((name) => !allowed.has(name));
  if (stray !== undefined) throw new CommandLineError(`unknown option --${stray} for ${command}`);
  const absent = (form.required ?? []).find((name) => !(name in values));
  if (absent !== undefined)
    throw new CommandLineError(
      `missing option ${optionSynopsis(absent, spec.options[absent]!)} for ${command}`,
    );
  return { verb: form.verb, command, operands, values: values as CommandValues<O> };
}

/**
 * Of forms sharing a verb (`revoke ID`, `revoke --origin O`, `revoke --all`), the one the
 * arguments fit: its operands, its required options, nothing else. When none fits, the one whose
 * required options were given (the first such), so the mistake is told against the form meant.
 */
function chooseForm(forms: readonly CommandForm[], operands: number, given: readonly string[]): CommandForm {
  const fits = (form: CommandForm) => {
    const allowed = new Set([...(form.required ?? []), ...(form.options ?? [])]);
    return (
      (form.operands ?? []).length === operands &&
      (form.required ?? []).every((name) => given.includes(name)) &&
      given.every((name) => allowed.has(name))
    );
  };
  const meant = (form: CommandForm) => (form.required ?? []).every((name) => given.includes(name));
  const byRequired = [...forms].sort((a, b) => (b.required ?? []).length - (a.required ?? []).length);
  return forms.find(fits) ?? byRequired.find(meant) ?? forms[0]!;
}

/** The command's help: every form with what it does, then every option. */
export function commandLineHelp(spec: CommandLineSpec): string {
  const forms = spec.forms.map((form) => ({ left: synopsis(spec, form), text: form.description }));
  const options = [
    ...Object.entries(spec.options).map(([name, option]) => ({
      left: optionSynopsis(name, option) + (option.multiple ? '...' : ''),
      text: option.description,
    })),
    { left: '-h, --help', text: 'show this help' },
  ];
  const notes = spec.notes === undefined ? '' : `\n${spec.notes.trimEnd()}\n`;
  return `Usage:\n${columns(forms)}\nOptions:\n${columns(options)}${notes}`;
}

/**
 * The synopsis of every form of several commands, with what each does, in one pair of columns:
 * the list `vmark --help` shows. `more` adds lines of other shapes (`vmark --version`).
 */
export function commandLineSummary(
  specs: readonly CommandLineSpec[],
  more: readonly { readonly usage: string; readonly description: string }[] = [],
): string {
  return columns([
    ...specs.flatMap((spec) =>
      spec.forms.map((form) => ({ left: synopsis(spec, form), text: form.description })),
    ),
    ...more.map(({ usage, description }) => ({ left: usage, text: description })),
  ]);
}

/**
 * Runs a command: parses its command line, prints the help when asked, and prints any mistake
 * (found by the parser, or thrown by `body` as a `CommandLineError`) with the usage.
 * @returns `body`'s exit code; 0 after the help, 2 after a mistake.
 */
export async function runCommandLine<O extends CommandOptions>(
  spec: CommandLineSpec<O>,
  argv: readonly string[],
  io: Pick<CommandIo, 'out' | 'err'>,
  body: (parsed: ParsedCommandLine<O>) => Promise<number> | number,
): Promise<number> {
  try {
    const parsed = parseCommandLine(spec, argv);
    if ('help' in parsed) {
      io.out(commandLineHelp(spec));
      return 0;
    }
    return await body(parsed);
  } catch (error) {
    if (!isCommandLineError(error)) throw error;
    io.err(`vmark: ${error.message}\n\n${commandLineHelp(spec)}`);
    return 2;
  }
}

function splitInline(arg: string): [string, string | undefined] {
  const at = arg.indexOf('=');
  return at > 2 && arg.startsWith('--') ? [arg.slice(0, at), arg.slice(at + 1)] : [arg, undefined];
}

function optionSynopsis(name: string, option: CommandOption): string {
  return option.type === 'boolean' ? `--${name}` : `--${name} ${option.value ?? 'VALUE'}`;
}

function synopsis(spec: CommandLineSpec, form: CommandForm): string {
  const option = (name: string) => optionSynopsis(name, spec.options[name]!);
  const optional = (name: string) => `[${option(name)}]${spec.options[name]!.multiple ? '...' : ''}`;
  return [
    spec.command,
    ...(form.verb === undefined ? [] : [form.verb]),
    ...(form.operands ?? []),
    ...(form.required ?? []).map(option),
    ...(form.options ?? []).map(optional),
  ].join(' ');
}

/** Two columns; a left side too long for its column puts the text on the lines below. */
function columns(rows: readonly { left: string; text: string }[]): string {
  const width = Math.min(34, Math.max(...rows.map((r) => r.left.length)));
  const indent = ' '.repeat(2 + width + 2);
  return rows
    .map(({ left, text }) => {
      const lines = text.split('\n');
      if (left.length > width) return `  ${left}\n${lines.map((l) => indent + l).join('\n')}\n`;
      const [first, ...rest] = lines;
      return `  ${left.padEnd(width)}  ${first}\n${rest.map((l) => indent + l + '\n').join('')}`;
    })
    .join('');
}
