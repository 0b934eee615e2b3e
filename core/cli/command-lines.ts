import { defineCommandLine } from '@vmark/sdk';

/*
 * Every command of `vmark`, declared once: its forms, operands and options. Each command parses
 * its arguments against its declaration (`runCommandLine`), and `--help`, the usage printed
 * after a mistake and the global `vmark --help` are all written from these. This module loads
 * nothing else, so that `vmark --help` costs no host.
 */

const workspace = {
  type: 'string',
  value: 'DIR',
  description: 'open this folder as the workspace (you typed it, so nobody is asked)',
} as const;
const open = {
  type: 'string',
  value: 'FILE',
  multiple: true,
  description: 'open this file in a tab (inside DIR, when --workspace is given)',
} as const;
const port = {
  type: 'string',
  value: 'N',
  description: 'the port on 127.0.0.1; 0, the default, picks a free one',
} as const;
const json = { type: 'boolean', description: 'print JSON' } as const;

export const MCP_COMMAND_LINE = defineCommandLine({
  command: 'vmark mcp',
  options: {
    workspace,
    open,
    http: { type: 'boolean', description: 'serve Streamable HTTP at /mcp instead of stdio' },
    port: { ...port, description: 'with --http: the port on 127.0.0.1; 0, the default, picks a free one' },
    client: { type: 'string', value: 'NAME', description: 'the MCP client (claude-code, cursor, …)' },
    json,
  },
  forms: [
    {
      options: ['workspace', 'open', 'http', 'port'],
      description:
        'serve MCP on stdio (what an AI client starts); with a\n' +
        'vmark serve running on this VMARK_HOME, attach to it.\n' +
        '--http: Streamable HTTP on 127.0.0.1 instead, printing\n' +
        '{"url","token"} as the first stdout line',
    },
    {
      verb: 'install',
      required: ['client'],
      options: ['json'],
      description:
        "mint NAME's credential and print the MCP config entry\nto paste into that client (shown once)",
    },
    { verb: 'clients', options: ['json'], description: 'the installed clients' },
    { verb: 'uninstall', required: ['client'], description: "revoke NAME's credential at once" },
  ],
});

export const SERVE_COMMAND_LINE = defineCommandLine({
  command: 'vmark serve',
  options: { workspace, port, open },
  forms: [
    {
      options: ['workspace', 'port', 'open'],
      description:
        'the editor: its UI and MCP on 127.0.0.1; prints the\n' +
        'page’s URL (with its token) as its first stdout line,\n' +
        'the MCP endpoint as its second',
    },
  ],
});

export const APP_COMMAND_LINE = defineCommandLine({
  command: 'vmark app',
  options: { workspace, port },
  forms: [
    {
      options: ['workspace', 'port'],
      description:
        'the editor in an app window (Electron, else Chromium\n' +
        '--app), reusing a running vmark serve of this VMARK_HOME',
    },
  ],
});

export const PLUGINS_COMMAND_LINE = defineCommandLine({
  command: 'vmark plugins',
  options: { json },
  forms: [
    { verb: 'list', options: ['json'], description: 'every plugin with its state and diagnostics' },
    {
      verb: 'enable',
      operands: ['ID'],
      options: ['json'],
      description: 'turn a plugin on (a running host follows)',
    },
    {
      verb: 'disable',
      operands: ['ID'],
      options: ['json'],
      description: 'turn a plugin off (a running host follows)',
    },
  ],
});

export const APPROVALS_COMMAND_LINE = defineCommandLine({
  command: 'vmark approvals',
  options: {
    json,
    origin: { type: 'string', value: 'ORIGIN', description: 'with revoke: every grant on this origin' },
    all: { type: 'boolean', description: 'with revoke: every standing grant' },
  },
  forms: [
    {
      verb: 'list',
      options: ['json'],
      description: 'requests of running hosts waiting for a person’s answer',
    },
    {
      verb: 'allow',
      operands: ['ID'],
      options: ['json'],
      description: 'allow one: the AI’s retried call goes ahead (once)',
    },
    {
      verb: 'allow-until-navigation',
      operands: ['ID'],
      options: ['json'],
      description: 'allow one that offers it (attach) until the page navigates',
    },
    {
      verb: 'deny',
      operands: ['ID'],
      options: ['json'],
      description: 'deny one: the AI’s retried call is refused',
    },
    {
      verb: 'grants',
      options: ['json'],
      description:
        'standing grants (“allow on this site”) of running\nhosts: operation, origin, who holds it, since when',
    },
    {
      verb: 'revoke',
      operands: ['GRANT-ID'],
      options: ['json'],
      description: 'end one standing grant: the next such call asks again',
    },
    {
      verb: 'revoke',
      required: ['origin'],
      options: ['json'],
      description: 'end every standing grant on ORIGIN',
    },
    { verb: 'revoke', required: ['all'], options: ['json'], description: 'end every standing grant' },
  ],
});

export const CHECKPOINTS_COMMAND_LINE = defineCommandLine({
  command: 'vmark checkpoints',
  options: {
    json,
    file: { type: 'string', value: 'PATH', description: 'only the edits of this file' },
  },
  forms: [
    { verb: 'list', options: ['json', 'file'], description: 'AI edits (undo history), newest first' },
    {
      verb: 'restore',
      operands: ['ID'],
      description:
        'put back the text an AI edit replaced, saved as a new\nrevision (itself recorded, so undoable)',
    },
  ],
});

/** The commands `vmark --help` lists, in its order. */
export const CORE_COMMAND_LINES = [
  MCP_COMMAND_LINE,
  SERVE_COMMAND_LINE,
  APP_COMMAND_LINE,
  PLUGINS_COMMAND_LINE,
  APPROVALS_COMMAND_LINE,
  CHECKPOINTS_COMMAND_LINE,
] as const;
