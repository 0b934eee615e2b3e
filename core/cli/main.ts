#!/usr/bin/env node
import { CommandLineError, isCommandLineError, isDomainError } from '@vmark/sdk';
import { ListenRefused } from '../net/listen-on-loopback.js';
import { VMARK_VERSION } from '../version.js';
import { USAGE } from './usage.js';

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
      // `vmark help serve` is `vmark serve --help`.
      if (command === 'help' && rest.length > 0) return main([...rest.slice(0, 1), '--help']);
      process.stdout.write(USAGE);
      return 0;
    default:
      // Anything else may be a command an enabled plugin contributes (`vmark plugins list`).
      if (/^[a-z][a-z0-9-]*$/.test(command))
        return (await import('./plugin-command.js')).pluginCommand(command, rest);
      throw new CommandLineError(
        `${command.startsWith('-') ? 'unknown option' : 'unknown command'} ${command} for vmark`,
      );
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Each command prints its own mistakes with its usage; what reaches here is vmark's own.
    if (isCommandLineError(error)) {
      process.stderr.write(`vmark: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    if (isDomainError(error)) {
      process.stderr.write(`vmark: ${error.message} (${error.code})\n`);
      process.exit(2);
    }
    // A port that cannot be had is the machine's state, not vmark's fault: the sentence says it all.
    if (error instanceof ListenRefused) {
      process.stderr.write(`vmark: ${error.message}\n`);
      process.exit(1);
    }
    process.stderr.write(
      `vmark: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
