/**
 * Imports a plugin's browser module (a panel, a kind view) from the UI server: same origin and
 * token-checked, so the page's CSP holds (ADR 20). The browser keeps one instance per URL.
 */
export async function importPluginModule(modulePath: string): Promise<Record<string, unknown>> {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  return (await import(`${modulePath}?token=${encodeURIComponent(token)}`)) as Record<string, unknown>;
}
