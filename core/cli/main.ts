#!/usr/bin/env node
import { isDomainError } from '@vmark/sdk';
import { VMARK_VERSION } from '../version.js';
import { USAGE, UsageError } from './usage.js';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    // Each command is imported when chosen, so `--version` does not load the host.
    case 'mcp':
      return (await import('./mcp-command.js')).mcpCommand(rest);
    case 'serve':
      return (await import('./serve-command.js')).serveCommand(rest);
    case 'app':
      return (await import('./app-command.js')).appCommand(rest);
    case 'plugins':
      return (await import('./plugins-command.js')).pluginsCommand(rest);
    case 'approvals':
      return (await import('./approvals-command.js')).approvalsCommand(rest);
    case 'checkpoints':
      return (await import('./checkpoints-command.js')).checkpointsCommand(rest);
    case '--health-check':
      return (await import('./health-check-command.js')).healthCheckCommand().catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        process.stdout.write(
          JSON.stringify({ status: 'error', version: VMARK_VERSION, error: message }) + '\n',
        );
        return 1;
      });
    case '--version':
    case '-v':
      process.stdout.write(`${VMARK_VERSION}\n`);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return 0;
    default:
      // Anything else may be a command an enabled plugin contributes (`vmark plugins list`).
      if (/^[a-z][a-z0-9-]*$/.test(command))
        return (await import('./plugin-command.js')).pluginCommand(command, rest);
      throw new UsageError(`unknown command: ${command}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (
      error instanceof UsageError ||
      (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
    ) {
      process.stderr.write(`vmark: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    if (isDomainError(error)) {
      process.stderr.write(`vmark: ${error.message} (${error.code})\n`);
      process.exit(2);
    }
    process.stderr.write(
      `vmark: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
