import { commandLineSummary } from '@vmark/sdk';
import { CORE_COMMAND_LINES } from './command-lines.js';

/** `vmark --help`: every command's forms, from their declarations (command-lines.ts). */
export const USAGE = `vmark — a Markdown editor host with an MCP server

Usage:
${commandLineSummary(CORE_COMMAND_LINES, [
  { usage: 'vmark COMMAND ...', description: 'a command contributed by a plugin (vmark plugins list)' },
  { usage: 'vmark --health-check', description: 'one JSON line: {status, version, toolCount, tools}' },
  { usage: 'vmark --version', description: 'the version' },
  { usage: 'vmark COMMAND --help', description: 'that command’s usage and options' },
])}
Environment:
  VMARK_HOME        the app-data folder (settings, plugin state); default $XDG_DATA_HOME/vmark
  VMARK_MCP_TOKEN   an installed client's credential (vmark mcp install): names the client
  VMARK_NO_ATTACH   1: vmark mcp and vmark app never attach to a running host
  VMARK_CHROMIUM, VMARK_ELECTRON   the program vmark app opens its window in
`;
