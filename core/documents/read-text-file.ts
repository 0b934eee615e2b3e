import { DomainError } from '@vmark/sdk';
import { type DiskState, diskStateOf } from '../vault/file-fingerprint.js';
import { type NotAFile, openRegularFile } from '../vault/open-regular-file.js';

/** Larger files are refused: a Markdown editor has no use for them and they would exhaust memory. */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

const NOT_A_FILE: Record<NotAFile, string> = {
  folder: 'is a folder, not a file',
  fifo: 'is a named pipe, not a file',
  socket: 'is a socket, not a file',
  device: 'is a device, not a file',
  symlink: 'is a symbolic link',
  other: 'is not a regular file',
};

/**
 * The file is not UTF-8 text (a picture, an archive, another encoding): the seed's
 * `INVALID_PATH` for MCP; the editor says in words that vmark opens text files only.
 */
export class NotTextError extends DomainError {
  constructor(readonly filePath: string) {
    super('INVALID_PATH', `${JSON.stringify(filePath)} is not UTF-8 text`);
  }
}

/** A text file as read: its text, the disk state of its bytes, and the bytes themselves. */
export interface TextFile {
  readonly content: string;
  readonly disk: DiskState;
  /** The bytes read, when they are exactly `content` in UTF-8 (not with a byte order mark, which decoding drops). */
  readonly utf8: Uint8Array | undefined;
}

/**
 * Reads a text file as a document: a regular file only (never blocking on a pipe or a
 * device), UTF-8 only, bounded in size, with the disk state of exactly the bytes read
 * (one handle for the stat and the read).
 * @throws DomainError `INVALID_PATH`.
 */
export async function readTextFile(canonicalPath: string): Promise<TextFile> {
  const quoted = JSON.stringify(canonicalPath);
  const opened = await openRegularFile(canonicalPath).catch(() => null);
  if (opened === null || opened.kind === 'missing') {
    throw new DomainError('INVALID_PATH', `${quoted} is not a readable file`);
  }
  if (opened.kind === 'not-a-file') {
    throw new DomainError('INVALID_PATH', `${quoted} ${NOT_A_FILE[opened.type]}`);
  }
  const { handle, stats } = opened;
  try {
    if (stats.size > MAX_DOCUMENT_BYTES) {
      throw new DomainError('INVALID_PATH', `${quoted} is larger than ${MAX_DOCUMENT_BYTES} bytes`);
    }
    const bytes = await handle.readFile();
    try {
      const content = utf8.decode(bytes);
      const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      return { content, disk: diskStateOf(stats, bytes), utf8: bom ? undefined : bytes };
    } catch {
      throw new NotTextError(canonicalPath);
    }
  } finally {
    await handle.close();
  }
}
