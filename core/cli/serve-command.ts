import { runCommandLine } from '@vmark/sdk';
import { SERVE_COMMAND_LINE } from './command-lines.js';
import { describeWaitingEdits, reportKeptEdits, startEditorHost } from './editor-host.js';
import { parsePort } from './port-option.js';
import { terminalIo } from './terminal-io.js';

/** Resolves on the first SIGINT or SIGTERM, leaving no listener behind. */
export function untilSignalled(): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

/**
 * `vmark serve`: the editor host. The first stdout line is the page's URL with
 * the per-launch token; the second names the MCP endpoint on the same port,
 * which takes the same token as a bearer.
 */
export function serveCommand(argv: string[]): Promise<number> {
  return runCommandLine(SERVE_COMMAND_LINE, argv, terminalIo(), async ({ values }) => {
    const editor = await startEditorHost({
      workspace: values.workspace,
      open: values.open,
      port: parsePort(values.port),
    });
    process.stdout.write(`${editor.url}\n`);
    process.stdout.write(
      `MCP (Streamable HTTP): ${editor.mcpUrl} with header "Authorization: Bearer ${editor.token}"` +
        ' (or `vmark mcp` with the same VMARK_HOME, which attaches to this host)\n',
    );
    const waiting = describeWaitingEdits(await editor.recoveredEdits());
    if (waiting !== null) process.stdout.write(waiting);
    await untilSignalled();
    // A second Ctrl+C from here on stops vmark at once, as it would any program.
    return reportKeptEdits(await editor.stop(), terminalIo()) ? 0 : 1;
  });
}
