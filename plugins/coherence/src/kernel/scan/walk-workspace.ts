/**
 * Lists and reads the Markdown files of a workspace for scan reconciliation (vmark-notes §7.6,
 * "Scan reconciliation"). Symlinks are never followed: a link could point out of the workspace
 * or make two paths carry one file (which would read as a duplicate id), so each one is
 * reported and skipped. The walk uses an explicit stack, so directory depth costs heap, not
 * call stack, and the number of files read is bounded.
 */
import { constants } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Directory names never entered, at any depth: coherence state, git internals, dependencies. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['.vmark', '.git', 'node_modules']);

export const MARKDOWN_SUFFIX = '.md';

export type ScanDiagnosticCode =
  | 'symlink'
  | 'not-a-file'
  | 'unreadable'
  | 'invalid-utf8'
  | 'too-large'
  | 'too-many-files'
  | 'duplicate-id'
  | 'ambiguous-heads'
  | 'ledger-incomplete'
  | 'not-initialized';

export interface ScanDiagnostic {
  readonly code: ScanDiagnosticCode;
  /** Workspace-relative path with `/` separators; absent for workspace-wide findings. */
  readonly path?: string;
  /** Object concerned (lower-case UUID), when the finding is about one. */
  readonly object?: string;
  readonly message: string;
}

export interface WorkspaceFile {
  /** Workspace-relative path with `/` separators, the form `object-registered` records. */
  readonly path: string;
  /** The file's bytes, valid UTF-8 (files that are not are reported instead). */
  readonly bytes: Uint8Array;
}

export interface WalkResult {
  /** Readable Markdown files, sorted by path. */
  readonly files: WorkspaceFile[];
  /** Findings, sorted by path. */
  readonly diagnostics: ScanDiagnostic[];
  /**
   * Markdown paths that exist but could not be read as text (symlink, unreadable, invalid
   * UTF-8, too large). An object last seen at one of these is unverified, not absent.
   */
  readonly skipped: string[];
  /** Folders not entered although they may hold documents: unlistable ones and linked ones. */
  readonly skippedDirs: string[];
  /** False when the file bound cut the listing short: then no object can be called absent. */
  readonly complete: boolean;
}

export interface WalkOptions {
  /** Files read at most; beyond it the walk stops with a `too-many-files` diagnostic. */
  readonly maxFiles?: number;
  /** Larger files are reported (`too-large`) instead of read. */
  readonly maxFileBytes?: number;
  /** Files read concurrently. */
  readonly concurrency?: number;
}

export const DEFAULT_MAX_FILES = 200_000;
export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;
const DEFAULT_CONCURRENCY = 16;

/** True for a path the walk would look at: a `.md` file outside every skipped directory. */
export function isWalkedMarkdownPath(path: string): boolean {
  const parts = path.split('/');
  const name = parts[parts.length - 1] ?? '';
  return isMarkdownName(name) && !parts.slice(0, -1).some((p) => SKIPPED_DIRS.has(p));
}

const isMarkdownName = (name: string): boolean =>
  name.endsWith(MARKDOWN_SUFFIX) && name.length > MARKDOWN_SUFFIX.length;

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const errorCode = (error: unknown): string =>
  (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.message : 'error');

// `fatal` so invalid UTF-8 is detected rather than replaced; the BOM is content (canonical-text.ts).
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// O_NOFOLLOW closes the gap between listing and opening: a file swapped for a link in between
// fails to open instead of being followed. Windows lacks the flag; there listing already
// excluded links. O_NONBLOCK keeps a FIFO named `*.md` from blocking the open.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

type ReadOutcome = { readonly bytes: Uint8Array } | { readonly diagnostic: ScanDiagnostic };

async function readMarkdown(abs: string, rel: string, maxBytes: number): Promise<ReadOutcome> {
  let handle;
  try {
    handle = await open(abs, OPEN_FLAGS);
  } catch (error) {
    const code = errorCode(error);
    // ELOOP is how O_NOFOLLOW reports a link that appeared after the listing.
    if (code === 'ELOOP') {
      return { diagnostic: { code: 'symlink', path: rel, message: 'symbolic link not followed' } };
    }
    return { diagnostic: { code: 'unreadable', path: rel, message: `cannot open: ${code}` } };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      return { diagnostic: { code: 'not-a-file', path: rel, message: 'not a regular file' } };
    }
    if (info.size > maxBytes) {
      return {
        diagnostic: { code: 'too-large', path: rel, message: `${info.size} bytes exceeds ${maxBytes}` },
      };
    }
    const bytes = await handle.readFile();
    try {
      utf8.decode(bytes);
    } catch {
      return { diagnostic: { code: 'invalid-utf8', path: rel, message: 'not valid UTF-8' } };
    }
    return { bytes };
  } catch (error) {
    return { diagnostic: { code: 'unreadable', path: rel, message: `cannot read: ${errorCode(error)}` } };
  } finally {
    await handle.close();
  }
}

/** Whether a link points at a folder; the target is only stat'ed, never entered. */
async function linksToDirectory(abs: string): Promise<boolean> {
  try {
    return (await stat(abs)).isDirectory();
  } catch {
    // Dangling or inaccessible: nothing behind it that the walk could have read anyway.
    return false;
  }
}

export async function walkWorkspace(root: string, options: WalkOptions = {}): Promise<WalkResult> {
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const diagnostics: ScanDiagnostic[] = [];
  const skipped: string[] = [];
  const skippedDirs: string[] = [];
  const candidates: string[] = [];

  // Relative directory paths still to list; '' is the root.
  const stack: string[] = [''];
  let truncated = false;
  while (stack.length > 0 && !truncated) {
    const dirRel = stack.pop() ?? '';
    const dirAbs = dirRel === '' ? root : join(root, ...dirRel.split('/'));
    let entries;
    try {
      entries = await readdir(dirAbs, { withFileTypes: true });
    } catch (error) {
      // The root itself must be listable; below it a vanished or locked folder is a finding.
      if (dirRel === '') throw error;
      diagnostics.push({
        code: 'unreadable',
        path: dirRel,
        message: `cannot list folder: ${errorCode(error)}`,
      });
      skippedDirs.push(dirRel);
      continue;
    }
    for (const entry of entries) {
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      // Dirent types come from lstat semantics, so a link reports as a link, never as its target.
      if (entry.isSymbolicLink()) {
        // Only links a reader would care about are reported: Markdown names and folders.
        if (isMarkdownName(entry.name)) {
          diagnostics.push({ code: 'symlink', path: rel, message: 'symbolic link not followed' });
          skipped.push(rel);
        } else if (!SKIPPED_DIRS.has(entry.name) && (await linksToDirectory(join(dirAbs, entry.name)))) {
          diagnostics.push({ code: 'symlink', path: rel, message: 'symbolic link to a folder not followed' });
          skippedDirs.push(rel);
        }
      } else if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) stack.push(rel);
      } else if (isMarkdownName(entry.name)) {
        if (!entry.isFile()) {
          diagnostics.push({ code: 'not-a-file', path: rel, message: 'not a regular file' });
          skipped.push(rel);
        } else if (candidates.length >= maxFiles) {
          truncated = true;
          break;
        } else {
          candidates.push(rel);
        }
      }
    }
  }
  if (truncated) {
    diagnostics.push({
      code: 'too-many-files',
      message: `more than ${maxFiles} Markdown files; the scan stopped listing`,
    });
  }

  const files: WorkspaceFile[] = [];
  // A small worker pool: reading 20,000 files one at a time is slow, all at once exhausts fds.
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < candidates.length; i = next++) {
      const rel = candidates[i];
      if (rel === undefined) break;
      const outcome = await readMarkdown(join(root, ...rel.split('/')), rel, maxFileBytes);
      if ('bytes' in outcome) {
        files.push({ path: rel, bytes: outcome.bytes });
      } else {
        diagnostics.push(outcome.diagnostic);
        skipped.push(rel);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, candidates.length) }, worker));

  files.sort((a, b) => compareStrings(a.path, b.path));
  diagnostics.sort((a, b) => compareStrings(a.path ?? '', b.path ?? '') || compareStrings(a.code, b.code));
  skipped.sort(compareStrings);
  skippedDirs.sort(compareStrings);
  return { files, diagnostics, skipped, skippedDirs, complete: !truncated };
}
