/** The workspace's contexts (vmark-notes §7.4): the default one the tools project in, and the list the terminal shows. */
import { DEFAULT_CONTEXT_ID, resolveContext, type ResolvedContext } from '../kernel/projection/index.js';
import { readContextFiles } from './context-files.js';

export interface ContextRow {
  readonly id: string;
  readonly name: string;
  readonly parent: string | null;
  readonly enforcement: 'enforcing' | 'greenhouse';
  readonly visibleClaims: number;
  readonly errors: readonly string[];
}

/** The default context, with the files that could not be read among its errors. */
export async function defaultContext(vmarkDir: string): Promise<ResolvedContext> {
  const files = await readContextFiles(vmarkDir);
  const context = resolveContext(DEFAULT_CONTEXT_ID, files.manifests);
  return files.errors.length === 0 ? context : { ...context, errors: [...files.errors, ...context.errors] };
}

/** Every context the workspace declares, and the implicit default. */
export async function contextRows(vmarkDir: string): Promise<ContextRow[]> {
  const files = await readContextFiles(vmarkDir);
  const rows = files.manifests.map((m): ContextRow => {
    const resolved = resolveContext(m.id, files.manifests);
    return {
      id: m.id.toLowerCase(),
      name: m.name,
      parent: m.parent?.toLowerCase() ?? null,
      enforcement: resolved.enforcement,
      visibleClaims: resolved.visibleClaims.length,
      errors: resolved.errors,
    };
  });
  // The implicit default always exists; unreadable files are reported on it.
  if (!rows.some((r) => r.id === DEFAULT_CONTEXT_ID))
    rows.unshift({
      id: DEFAULT_CONTEXT_ID,
      name: 'default',
      parent: null,
      enforcement: 'greenhouse',
      visibleClaims: 0,
      errors: [],
    });
  if (files.errors.length > 0) {
    const i = rows.findIndex((r) => r.id === DEFAULT_CONTEXT_ID);
    const row = rows[i]!;
    rows[i] = { ...row, errors: [...files.errors, ...row.errors] };
  }
  return rows;
}
