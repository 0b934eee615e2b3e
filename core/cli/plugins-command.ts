import type { PluginReport } from '../plugins/plugin-host.js';
import { startHost } from './start-host.js';
import { UsageError } from './usage.js';
import { parseVerbArgs } from './verb-args.js';

export async function pluginsCommand(argv: string[]): Promise<number> {
  const { verb, id, json } = parseVerbArgs(argv);
  const host = await startHost();
  try {
    if (verb === 'list' || verb === undefined) {
      if (id !== undefined) throw new UsageError('plugins list takes no id');
      const reports = host.plugins.reports();
      process.stdout.write(json ? JSON.stringify(reports, null, 2) + '\n' : table(reports));
      return 0;
    }
    if (verb !== 'enable' && verb !== 'disable') throw new UsageError(`unknown plugins command: ${verb}`);
    if (id === undefined) throw new UsageError(`plugins ${verb} needs a plugin id`);
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
