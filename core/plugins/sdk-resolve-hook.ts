/**
 * A Node module-resolution hook (see `module.register`), run in the loader thread.
 * User plugins live in `$VMARK_HOME/plugins/<id>/` with no node_modules of their
 * own; their `import '@vmark/sdk'` (and its subpaths, e.g. `@vmark/sdk/markdown`)
 * resolves as if the host had imported it, so every plugin shares the host's SDK
 * and the host API version its manifest was checked against.
 */

interface HookData {
  /** A module of the host, from which `@vmark/sdk` resolves. */
  readonly hostURL: string;
}

interface ResolveContext {
  readonly parentURL?: string;
}

interface ResolveResult {
  readonly url: string;
  readonly shortCircuit?: boolean;
}

type NextResolve = (specifier: string, context: ResolveContext) => Promise<ResolveResult>;

let hostURL = '';

export function initialize(data: HookData): void {
  hostURL = data.hostURL;
}

export async function resolve(
  specifier: string,
  context: ResolveContext,
  nextResolve: NextResolve,
): Promise<ResolveResult> {
  if (specifier === '@vmark/sdk' || specifier.startsWith('@vmark/sdk/')) {
    return nextResolve(specifier, { ...context, parentURL: hostURL });
  }
  return nextResolve(specifier, context);
}
