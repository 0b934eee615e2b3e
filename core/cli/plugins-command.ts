import { runCommandLine } from '@vmark/sdk';
import type { PluginReport } from '../plugins/plugin-host.js';
import { PLUGINS_COMMAND_LINE } from './command-lines.js';
import { startHost } from './start-host.js';
import { terminalIo } from './terminal-io.js';

export function pluginsCommand(argv: string[]): Promise<number> {
  return runCommandLine(PLUGINS_COMMAND_LINE, argv, terminalIo(), async ({ verb, operands, values }) => {
    const json = values.json === true;
    const host = await startHost();
    try {
      if (verb === 'list') {
        const reports = host.plugins.reports();
        process.stdout.write(json ? JSON.stringify(reports, null, 2) + '\n' : table(reports));
        return 0;
      }
      const id = operands[0]!;
      if (!host.plugins.reports().some((p) => p.id === id)) {
        process.stderr.write(`vmark: no plugin with id "${id}" (see vmark plugins list)\n`);
        return 1;
      }
      await host.plugins.setEnabled(id, verb === 'enable');
      const report = host.plugins.reports().find((p) => p.id === id)!;
      process.stdout.write(
        json ? JSON.stringify(report, null, 2) + '\n' : `${id}: ${report.enabled ? 'enabled' : 'disabled'}\n`,
      );
      return 0;
    } finally {
      await host.dispose();
    }
  });
}

function table(reports: readonly PluginReport[]): string {
  const lines = reports.map((p) => {
    const state = !p.enabled ? 'disabled' : p.active ? 'active' : 'not loaded';
    const commands = p.commands.length > 0 ? `  commands: ${p.commands.join(', ')}` : '';
    const head = `${p.id}@${p.version}  ${state}  (${p.source})  tools: ${p.tools.join(', ') || '—'}${commands}`;
    const notes = p.diagnostics.map((d) => `    ${d.severity}: ${d.message}`);
    return [head, ...notes].join('\n');
  });
  return lines.join('\n') + '\n';
}
