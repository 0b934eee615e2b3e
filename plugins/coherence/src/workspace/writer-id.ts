/**
 * The installation's writer id (vmark-notes §7.1): a UUIDv7 in `$VMARK_HOME/coherence-writer-id`,
 * created once and kept, so that every ledger segment this installation writes carries one name.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isUuid, uuidv7 } from '../kernel/identity/index.js';
import { errorCode } from '@vmark/sdk';

export const WRITER_ID_FILE = 'coherence-writer-id';

export async function loadWriterId(home: string): Promise<string> {
  const file = path.join(home, WRITER_ID_FILE);
  try {
    // `wx`: when two processes start at once, one creates the id and the other reads it.
    await writeFile(file, `${uuidv7()}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  }
  const id = (await readFile(file, 'utf8')).trim().toLowerCase();
  // Replacing a damaged id would silently start a second writer; a person should look first.
  if (!isUuid(id)) throw new Error(`${file} does not hold a writer UUID; move it away to start a new writer`);
  return id;
}

/**
 * The writer id, read (or created) on first use, so a host that never touches coherence writes
 * nothing; a failed read is tried again by the next call.
 */
export function writerIdOnFirstUse(home: string): () => Promise<string> {
  let writer: Promise<string> | undefined;
  return () =>
    (writer ??= loadWriterId(home).catch((error: unknown) => {
      writer = undefined;
      throw error;
    }));
}
