import { runCommandLine } from '@vmark/sdk';
import { SERVE_COMMAND_LINE } from './command-lines.js';
import { describeWaitingEdits, reportKeptEdits, startEditorHost } from './editor-host.js';
import { parsePort } from './port-option.js';
import { terminalIo } from './terminal-io.js';

/** Ctrl+C, a `kill`, and the terminal closing. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Resolves on the first stop signal. From then on, further ones are ignored: a signal often
 * arrives twice (from the terminal and passed on by a parent such as `npm start`), and a
 * second one must not cut short the copies of unsaved edits the stop is writing.
 */
function untilSignalled(): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      resolve();
    };
    for (const signal of STOP_SIGNALS) process.on(signal, stop);
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
    // Listening before the first line: whoever reads it may stop this host at once.
    const signalled = untilSignalled();
    process.stdout.write(`${editor.url}\n`);
    process.stdout.write(
      `MCP (Streamable HTTP): ${editor.mcpUrl} with header "Authorization: Bearer ${editor.token}"` +
        ' (or `vmark mcp` with the same VMARK_HOME, which attaches to this host)\n',
    );
    await editor.recoveredEdits().then(
      (edits) => void process.stdout.write(describeWaitingEdits(edits)),
      // The editor serves on: only the offer of earlier edits is missing, and the person is told.
      (error: unknown) =>
        void process.stderr.write(
          `vmark: kept edits could not be read: ${error instanceof Error ? error.message : String(error)}\n`,
        ),
    );
    await signalled;
    return reportKeptEdits(await editor.stop(), terminalIo()) ? 0 : 1;
  });
}
