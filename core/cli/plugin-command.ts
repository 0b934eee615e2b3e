import { CommandRegistry } from '../plugins/command-registry.js';
import { startHost } from './start-host.js';
import { UsageError } from './usage.js';

/** `vmark <name> …` for a command an enabled plugin contributes. */
export async function pluginCommand(name: string, argv: string[]): Promise<number> {
  const host = await startHost();
  try {
    const command = host.container.get(CommandRegistry).get(name);
    if (command === undefined) throw new UsageError(`unknown command: ${name}`);
    return await command.run(argv, {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
      cwd: process.cwd(),
    });
  } finally {
    await host.dispose();
  }
}
