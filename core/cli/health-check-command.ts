import { startHost } from './start-host.js';

/**
 * Boots the host with its plugins and reports what an MCP client would be offered. A plugin that
 * could not load leaves the others serving: the host is `degraded`, the problems are listed, and the
 * exit code stays 0. Only a host that cannot start at all exits 1 (main.ts reports that).
 */
export async function healthCheckCommand(): Promise<number> {
  const host = await startHost();
  try {
    const tools = host
      .tools()
      .map((tool) => ({ name: tool.name, title: tool.title, actions: tool.actionNames }));
    const problems = host.plugins
      .reports()
      .filter((plugin) => plugin.enabled)
      .flatMap((plugin) =>
        plugin.diagnostics
          .filter((d) => d.severity === 'error')
          .map((d) => ({ plugin: plugin.id, message: d.message })),
      );
    const status = problems.length === 0 ? 'ok' : 'degraded';
    const report = {
      status,
      version: host.version,
      toolCount: tools.length,
      tools,
      ...(problems.length ? { problems } : {}),
    };
    process.stdout.write(JSON.stringify(report) + '\n');
    return 0;
  } finally {
    await host.dispose();
  }
}
