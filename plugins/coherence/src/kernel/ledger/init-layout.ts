/**
 * The `.vmark/` layout (vmark-notes §7.1). Call `ensureLayout` only when the first
 * transformation is captured, never when a workspace is opened or read: opening a folder must
 * not leave a `.vmark/` behind in it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LEDGER_DIR } from './segments.js';
import { errorCode } from '@vmark/sdk';

/** The index is derived and rebuildable, so it stays out of git (with its -wal/-shm files). */
export const GITIGNORE = 'index.db*\n';

/** Writers only ever append lines, so a union merge of two branches' segments is correct. */
export const GITATTRIBUTES = 'ledger/*.jsonl merge=union\n';

export interface LayoutReport {
  /** Paths relative to the `.vmark/` directory that this call created. */
  readonly created: string[];
}

/** Creates a file only if absent: an existing one may carry the user's own rules. */
async function createIfAbsent(path: string, content: string): Promise<boolean> {
  try {
    await writeFile(path, content, { flag: 'wx' });
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
}

/** Idempotent; never overwrites anything. */
export async function ensureLayout(vmarkDir: string): Promise<LayoutReport> {
  const created: string[] = [];
  const ledger = join(vmarkDir, LEDGER_DIR);
  if ((await mkdir(ledger, { recursive: true })) !== undefined) created.push(`${LEDGER_DIR}/`);
  if (await createIfAbsent(join(vmarkDir, '.gitignore'), GITIGNORE)) created.push('.gitignore');
  if (await createIfAbsent(join(vmarkDir, '.gitattributes'), GITATTRIBUTES)) created.push('.gitattributes');
  return { created };
}
