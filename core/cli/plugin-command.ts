import { CommandLineError } from '@vmark/sdk';
import { CommandRegistry } from '../plugins/command-registry.js';
import { startHost } from './start-host.js';
import { terminalIo } from './terminal-io.js';

/** `vmark <name> …` for a command an enabled plugin contributes. */
export async function pluginCommand(name: string, argv: string[]): Promise<number> {
  const host = await startHost();
  try {
    const command = host.container.get(CommandRegistry).get(name);
    if (command === undefined) throw new CommandLineError(`unknown command ${name} for vmark`);
    return await command.run(argv, terminalIo());
  } finally {
    await host.dispose();
  }
}
