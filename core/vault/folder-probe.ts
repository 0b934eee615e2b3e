import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FolderProbe } from '@vmark/sdk';
import { errorCode } from '@vmark/sdk';
import { lexicalResolve } from './path-scope.js';

/** Errors that mean "nothing is there" rather than "something is there that may not be read". */
const ABSENT = new Set(['ENOENT', 'ENOTDIR']);

/**
 * What an absolute path is and where it really leads, for the person asked to
 * open it (ADR 22). It never fails on what the disk holds: the answer is for
 * the person, and a caller that failed on a missing path would tell the client.
 * `stat`, never `open`: a FIFO or a device is described, not waited on.
 * @throws DomainError `INVALID_PATH` for input refused without the disk (relative, blank, NUL).
 */
export async function probeFolder(input: string): Promise<FolderProbe> {
  const lexical = lexicalResolve(input, undefined);
  try {
    const real = await realpath(lexical);
    return { path: real, state: (await stat(real)).isDirectory() ? 'folder' : 'not-folder' };
  } catch (error) {
    const absent = ABSENT.has(errorCode(error) ?? '');
    return { path: await nearestReal(lexical), state: absent ? 'missing' : 'unreadable' };
  }
}

/** `lexical` with its longest existing leading part resolved: where a missing path would be. */
async function nearestReal(lexical: string): Promise<string> {
  const rest: string[] = [];
  let current = lexical;
  for (;;) {
    const real = await realpath(current).catch(() => null);
    if (real !== null) return path.join(real, ...rest);
    const parent = path.dirname(current);
    if (parent === current) return lexical;
    rest.unshift(path.basename(current));
    current = parent;
  }
}
