/**
 * A Node module-resolution hook (see `module.register`), run in the loader thread.
 * User plugins live in `$VMARK_HOME/plugins/<id>/` with no node_modules of their
 * own; their `import '@vmark/sdk'` resolves to the host's SDK, so every plugin
 * shares one SDK and the host API version its manifest was checked against.
 */

interface HookData {
  readonly sdkUrl: string;
}

interface ResolveResult {
  readonly url: string;
  readonly shortCircuit?: boolean;
}

type NextResolve = (specifier: string, context: unknown) => Promise<ResolveResult>;

let sdkUrl = '';

export function initialize(data: HookData): void {
  sdkUrl = data.sdkUrl;
}

export async function resolve(
  specifier: string,
  context: unknown,
  nextResolve: NextResolve,
): Promise<ResolveResult> {
  if (specifier === '@vmark/sdk') return { url: sdkUrl, shortCircuit: true };
  return nextResolve(specifier, context);
}
