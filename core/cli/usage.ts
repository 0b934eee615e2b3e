export const USAGE = `vmark — a Markdown editor host with an MCP server

Usage:
  vmark mcp [--workspace DIR] [--open FILE]...   serve MCP on stdio (what an AI client starts); with a
                                                 vmark serve running on this VMARK_HOME, attach to it
  vmark mcp --http [--port N] [--workspace DIR] [--open FILE]...
                                                 serve MCP over Streamable HTTP on 127.0.0.1;
                                                 prints {"url","token"} as its first stdout line
  vmark mcp install --client NAME                mint NAME's credential and print the MCP config
                                                 snippet to paste into that client (shown once)
  vmark mcp clients [--json] | uninstall --client NAME
                                                 installed clients; revoke one's credential
  vmark serve [--workspace DIR] [--port N] [--open FILE]...
                                                 the editor: serves its UI and MCP on 127.0.0.1; prints
                                                 the page's URL (with its token) as its first stdout line
  vmark app [--workspace DIR] [--port N]         the editor in an app window (Electron, else Chromium
                                                 --app), reusing a running vmark serve of this VMARK_HOME
  vmark plugins list [--json]                    every plugin with its state and diagnostics
  vmark plugins enable ID | disable ID           turn a plugin on or off (a running host follows)
  vmark approvals list [--json]                  requests of running hosts waiting for a person's answer
  vmark approvals allow ID | deny ID             answer one; the AI's retried call goes ahead or is refused
  vmark checkpoints list [--json] [--file PATH]  AI edits (undo history), newest first
  vmark checkpoints restore ID                   put back the text an AI edit replaced, saved as a
                                                 new revision (itself recorded, so undoable)
  vmark COMMAND ...                              a command contributed by a plugin (vmark plugins list)
  vmark --health-check                           one JSON line: {status, version, toolCount, tools}
  vmark --version

Environment:
  VMARK_HOME        the app-data folder (settings, plugin state); default $XDG_DATA_HOME/vmark
  VMARK_MCP_TOKEN   an installed client's credential (vmark mcp install): names the client
  VMARK_NO_ATTACH   1: vmark mcp and vmark app never attach to a running host
  VMARK_CHROMIUM, VMARK_ELECTRON   the program vmark app opens its window in
`;

/** A mistake in how the command was called: printed with the usage, exit code 2. */
export class UsageError extends Error {}
