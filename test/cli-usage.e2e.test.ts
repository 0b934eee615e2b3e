import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, TempDirs } from './support/cli.js';

/*
 * How `vmark` tells a person how to call it: every command's own usage for `--help` and `-h`,
 * and for a mistake that command's usage after one line in one wording.
 */

const temp = new TempDirs();
let home: string;

beforeAll(async () => {
  home = await temp.make('vmark-usage-home-');
});
afterAll(() => temp.cleanup());

const vmark = (...args: string[]) => runCli(args, { VMARK_HOME: home });

/** Each command, with a line only its own usage holds. */
const COMMANDS: readonly (readonly [string[], string])[] = [
  [['mcp'], 'vmark mcp install --client NAME'],
  [['serve'], 'vmark serve [--workspace DIR] [--port N]'],
  [['app'], 'vmark app [--workspace DIR] [--port N]'],
  [['plugins'], 'vmark plugins enable ID'],
  [['approvals'], 'vmark approvals allow ID'],
  [['checkpoints'], 'vmark checkpoints restore ID'],
  [['coherence'], 'vmark coherence delegate --to CLIENT'],
];

describe('vmark COMMAND --help', () => {
  it.each(COMMANDS)('vmark %j --help and -h print that command’s usage and exit 0', async (command, line) => {
    for (const flag of ['--help', '-h']) {
      const result = await vmark(...command, flag);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^Usage:\n/);
      expect(result.stdout).toContain(line);
      expect(result.stdout).toContain('-h, --help');
      // Its own usage, not the global one.
      expect(result.stdout).not.toContain('a Markdown editor host');
    }
  });

  it('vmark help COMMAND is COMMAND --help', async () => {
    expect((await vmark('help', 'serve')).stdout).toBe((await vmark('serve', '--help')).stdout);
  });

  it('lists every command in the global help, from the same declarations', async () => {
    const global = await vmark('--help');
    expect(global.code).toBe(0);
    for (const [, line] of COMMANDS.filter(([command]) => command[0] !== 'coherence')) {
      expect(global.stdout).toContain(line);
    }
  });
});

describe('mistakes on the command line', () => {
  it.each(COMMANDS)(
    'vmark %j --bogus names the option and the command, then prints that command’s usage',
    async (command, line) => {
      const result = await vmark(...command, '--bogus');
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      const [first, blank, ...usage] = result.stderr.split('\n');
      expect(first).toBe(`vmark: unknown option --bogus for vmark ${command.join(' ')}`);
      expect(blank).toBe('');
      expect(usage.join('\n')).toMatch(/^Usage:\n/);
      expect(result.stderr).toContain(line);
      expect(result.stderr).not.toContain('a Markdown editor host');
    },
  );

  it('says which subcommand an option does not belong to', async () => {
    const result = await vmark('checkpoints', 'restore', 'cp-1', '--file', 'x.md');
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('vmark: unknown option --file for vmark checkpoints restore');
  });

  it('names what is missing, and what is too much', async () => {
    expect((await vmark('plugins', 'enable')).stderr.split('\n')[0]).toBe(
      'vmark: missing ID for vmark plugins enable',
    );
    expect((await vmark('mcp', 'install')).stderr.split('\n')[0]).toBe(
      'vmark: missing option --client NAME for vmark mcp install',
    );
    expect((await vmark('serve', '--port')).stderr.split('\n')[0]).toBe(
      'vmark: missing value N after --port for vmark serve',
    );
    expect((await vmark('approvals', 'allow', 'a', 'b')).stderr.split('\n')[0]).toBe(
      'vmark: unexpected argument b for vmark approvals allow',
    );
    expect((await vmark('approvals', 'maybe')).stderr.split('\n')[0]).toBe(
      'vmark: unknown subcommand maybe for vmark approvals',
    );
  });

  it('prints the global usage only for a mistake in the first word', async () => {
    const result = await vmark('--bogus');
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('vmark: unknown option --bogus for vmark');
    expect(result.stderr).toContain('a Markdown editor host');
  });

  it('never shows Node’s own parser messages (whose quotes do not balance)', async () => {
    for (const command of COMMANDS.map(([c]) => c)) {
      const { stderr } = await vmark(...command, '--bogus');
      expect(stderr).not.toContain('To specify a positional argument');
      expect(stderr.split('\n')[0]!.split('"').length % 2).toBe(1);
      expect(stderr.split('\n')[0]!.split("'").length % 2).toBe(1);
    }
  });
});

describe('a command of subcommands called without one', () => {
  it.each([['approvals'], ['plugins'], ['checkpoints'], ['coherence']])(
    'vmark %s prints its usage instead of doing something',
    async (command) => {
      const result = await vmark(command);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage:\n/);
      expect(result.stdout).not.toContain('no running vmark host');
    },
  );
});
