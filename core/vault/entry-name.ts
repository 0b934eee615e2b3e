/**
 * A name the person types for a file or folder (new, rename, a copy's): one path segment, kept
 * exactly as typed — trailing spaces and dots are legal names on the disks vmark writes to, and
 * never trimmed (DESIGN §4). Refused: what is not one segment (`/`, and `\` where it separates),
 * `.`/`..`, NUL, names longer than a file system takes, the protected `.vmark` in any spelling a
 * case-insensitive disk would take for it, and on Windows the device names (`CON`, `NUL.txt`, …).
 */
import { DomainError } from '@vmark/sdk';
import { quotePath } from './path-scope.js';
import { foldSegment, VMARK_FOLDER } from './protected-folders.js';

/** NAME_MAX on Linux and macOS file systems, in UTF-8 bytes. */
const MAX_NAME_BYTES = 255;
const WINDOWS_DEVICES = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/**
 * `name`, unchanged, when it can name an entry of a folder.
 * @throws DomainError `INVALID_PATH` saying why not.
 */
export function checkEntryName(name: string, platform: NodeJS.Platform = process.platform): string {
  const refuse = (reason: string) => new DomainError('INVALID_PATH', `The name ${quotePath(name)} ${reason}`);
  if (typeof name !== 'string' || name === '') throw refuse('is empty');
  if (name.trim() === '') throw refuse('is only spaces');
  if (name.includes('\0')) throw refuse('contains a NUL byte');
  if (name.includes('/') || (platform === 'win32' && name.includes('\\')))
    throw refuse('contains a folder separator: give a name, not a path');
  if (name === '.' || name === '..') throw refuse('names a folder itself, not an entry in it');
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES)
    throw refuse(`is longer than ${MAX_NAME_BYTES} bytes, more than a file system takes`);
  if (foldSegment(name) === VMARK_FOLDER)
    throw refuse('is the protected .vmark folder, which holds a workspace coherence ledger');
  if (platform === 'win32') {
    if (WINDOWS_DEVICES.test(name.replace(/[. ]+$/, '')))
      throw refuse('is a device name on Windows (CON, PRN, AUX, NUL, COM1–9, LPT1–9)');
    if (/[<>:"|?*]/.test(name) || [...name].some((char) => char < ' '))
      throw refuse('contains a character Windows does not allow in names');
  }
  return name;
}
