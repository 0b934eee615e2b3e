import { describe, expect, it } from 'vitest';
import {
  CommandLineError,
  commandLineHelp,
  defineCommandLine,
  isCommandLineError,
  parseCommandLine,
  runCommandLine,
} from './command-line.js';

const NOTES = defineCommandLine({
  command: 'vmark notes',
  options: {
    json: { type: 'boolean', description: 'print JSON' },
    tag: { type: 'string', value: 'TAG', multiple: true, description: 'only notes with this tag' },
    to: { type: 'string', value: 'WHO', description: 'whom to send it to' },
  },
  forms: [
    { verb: 'list', options: ['json', 'tag'], description: 'every note' },
    { verb: 'send', operands: ['ID'], required: ['to'], description: 'send one\nto someone' },
  ],
});

const SERVE = defineCommandLine({
  command: 'vmark serve',
  options: { port: { type: 'string', value: 'N', description: 'the port' } },
  forms: [{ options: ['port'], description: 'serve' }],
});

const mistake = (spec: Parameters<typeof parseCommandLine>[0], argv: string[]) => {
  try {
    parseCommandLine(spec, argv);
  } catch (error) {
    if (isCommandLineError(error)) return error.message;
    throw error;
  }
  throw new Error('no mistake found');
};

describe('parseCommandLine', () => {
  it('reads a subcommand, its operands and options, wherever the options are', () => {
    expect(parseCommandLine(NOTES, ['--to', 'ann', 'send', 'n-1'])).toEqual({
      verb: 'send',
      command: 'vmark notes send',
      operands: ['n-1'],
      values: { to: 'ann' },
    });
    expect(parseCommandLine(NOTES, ['list', '--tag=a', '--json', '--tag', 'b'])).toMatchObject({
      verb: 'list',
      values: { json: true, tag: ['a', 'b'] },
    });
    expect(parseCommandLine(SERVE, ['--port', '0'])).toMatchObject({
      verb: undefined,
      values: { port: '0' },
    });
  });

  it('takes -h and --help anywhere, and a command of subcommands without one, as asking for help', () => {
    expect(parseCommandLine(NOTES, ['send', '--help'])).toEqual({ help: true });
    expect(parseCommandLine(SERVE, ['-h', '--bogus'])).toEqual({ help: true });
    expect(parseCommandLine(NOTES, [])).toEqual({ help: true });
  });

  it('words every mistake alike: what is wrong, for which command', () => {
    expect(mistake(SERVE, ['--bogus'])).toBe('unknown option --bogus for vmark serve');
    expect(mistake(NOTES, ['--bogus'])).toBe('unknown option --bogus for vmark notes');
    expect(mistake(NOTES, ['list', '--to', 'x'])).toBe('unknown option --to for vmark notes list');
    expect(mistake(NOTES, ['lst'])).toBe('unknown subcommand lst for vmark notes');
    expect(mistake(NOTES, ['send', '--to', 'x'])).toBe('missing ID for vmark notes send');
    expect(mistake(NOTES, ['send', 'n-1'])).toBe('missing option --to WHO for vmark notes send');
    expect(mistake(NOTES, ['send', 'n-1', 'n-2', '--to', 'x'])).toBe(
      'unexpected argument n-2 for vmark notes send',
    );
    expect(mistake(SERVE, ['--port'])).toBe('missing value N after --port for vmark serve');
    expect(mistake(SERVE, ['--port', '1', '--port', '2'])).toBe('option --port given twice for vmark serve');
    expect(mistake(NOTES, ['list', '--json=yes'])).toBe('option --json takes no value for vmark notes list');
    expect(mistake(SERVE, ['extra'])).toBe('unexpected argument extra for vmark serve');
    // Not an option of the declaration, even one every object has.
    expect(mistake(SERVE, ['--constructor', 'x'])).toBe('unknown option --constructor for vmark serve');
  });

  it('leaves what follows -- to the operands', () => {
    expect(parseCommandLine(NOTES, ['send', '--to', 'x', '--', '--odd-id'])).toMatchObject({
      operands: ['--odd-id'],
    });
  });
});

describe('forms sharing a verb', () => {
  const GRANTS = defineCommandLine({
    command: 'vmark grants',
    options: {
      origin: { type: 'string', value: 'ORIGIN', description: 'every grant on it' },
      all: { type: 'boolean', description: 'every grant' },
      json: { type: 'boolean', description: 'print JSON' },
    },
    forms: [
      { verb: 'revoke', operands: ['ID'], options: ['json'], description: 'one' },
      { verb: 'revoke', required: ['origin'], options: ['json'], description: 'on an origin' },
      { verb: 'revoke', required: ['all'], options: ['json'], description: 'all' },
    ],
  });

  it('takes the form the arguments fit', () => {
    expect(parseCommandLine(GRANTS, ['revoke', 'g-1', '--json'])).toMatchObject({
      operands: ['g-1'],
      values: { json: true },
    });
    expect(parseCommandLine(GRANTS, ['revoke', '--origin', 'https://a.example'])).toMatchObject({
      operands: [],
      values: { origin: 'https://a.example' },
    });
    expect(parseCommandLine(GRANTS, ['revoke', '--all'])).toMatchObject({
      operands: [],
      values: { all: true },
    });
  });

  it('tells a mistake against the form that was meant', () => {
    expect(mistake(GRANTS, ['revoke'])).toBe('missing ID for vmark grants revoke');
    expect(mistake(GRANTS, ['revoke', 'g-1', '--all'])).toBe(
      'unexpected argument g-1 for vmark grants revoke',
    );
    expect(mistake(GRANTS, ['revoke', '--all', '--origin', 'x'])).toMatch(
      /^unknown option --(all|origin) for/,
    );
  });

  it('shows each form on its own line', () => {
    const help = commandLineHelp(GRANTS);
    expect(help).toMatch(/^ {2}vmark grants revoke ID \[--json\] +one$/m);
    expect(help).toMatch(/^ {2}vmark grants revoke --origin ORIGIN \[--json\]$/m);
    expect(help).toMatch(/^ {2}vmark grants revoke --all \[--json\] +all$/m);
  });
});

describe('commandLineHelp', () => {
  it('lists every form and every option from the declaration', () => {
    expect(commandLineHelp(NOTES)).toBe(
      'Usage:\n' +
        // A synopsis too wide for the column puts its text on the next line.
        '  vmark notes list [--json] [--tag TAG]...\n' +
        '                                      every note\n' +
        '  vmark notes send ID --to WHO        send one\n' +
        '                                      to someone\n' +
        '\n' +
        'Options:\n' +
        '  --json        print JSON\n' +
        '  --tag TAG...  only notes with this tag\n' +
        '  --to WHO      whom to send it to\n' +
        '  -h, --help    show this help\n',
    );
  });
});

describe('runCommandLine', () => {
  const io = () => {
    const written = { out: '', err: '' };
    return {
      written,
      io: { out: (t: string) => (written.out += t), err: (t: string) => (written.err += t) },
    };
  };

  it('prints the help on stdout for --help and exits 0, without running the command', async () => {
    const { written, io: terminal } = io();
    let ran = false;
    expect(await runCommandLine(NOTES, ['--help'], terminal, () => ((ran = true), 0))).toBe(0);
    expect(ran).toBe(false);
    expect(written).toEqual({ out: commandLineHelp(NOTES), err: '' });
  });

  it("prints a mistake, the parser's or the command's own, with the usage on stderr and exits 2", async () => {
    const parsed = io();
    expect(await runCommandLine(SERVE, ['--bogus'], parsed.io, () => 0)).toBe(2);
    expect(parsed.written.err).toBe(
      `vmark: unknown option --bogus for vmark serve\n\n${commandLineHelp(SERVE)}`,
    );
    const own = io();
    const code = await runCommandLine(SERVE, ['--port', 'x'], own.io, () => {
      throw new CommandLineError('--port must be a number');
    });
    expect(code).toBe(2);
    expect(own.written.err).toMatch(/^vmark: --port must be a number\n\nUsage:/);
  });

  it('lets other failures through', async () => {
    await expect(runCommandLine(SERVE, [], io().io, () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
  });
});
