/** Reading `.vmark/contexts/*.json` (vmark-notes §7.4); a file that does not parse is reported, not fatal. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseContextManifest, type ContextManifest } from '../kernel/projection/index.js';
import { errorCode } from '@vmark/sdk';

export const CONTEXTS_DIR = 'contexts';

export interface ContextFiles {
  readonly manifests: readonly ContextManifest[];
  /** `contexts/<file>: <problem>` for every file that could not be used. */
  readonly errors: readonly string[];
}

export async function readContextFiles(vmarkDir: string): Promise<ContextFiles> {
  const dir = path.join(vmarkDir, CONTEXTS_DIR);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { manifests: [], errors: [] };
    throw error;
  }
  const manifests: ContextManifest[] = [];
  const errors: string[] = [];
  for (const name of names) {
    let value: unknown;
    try {
      value = JSON.parse(await readFile(path.join(dir, name), 'utf8'));
    } catch (error) {
      errors.push(`${CONTEXTS_DIR}/${name}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const parsed = parseContextManifest(value);
    if ('ok' in parsed) manifests.push(parsed.ok);
    else errors.push(`${CONTEXTS_DIR}/${name}: ${parsed.error}`);
  }
  return { manifests, errors };
}
