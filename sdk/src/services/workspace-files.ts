import type { Disposable } from '../lifecycle.js';

/** A change a folder watch heard in a workspace root (host API 1.11.0). */
export interface WorkspaceFileChange {
  /** The folder, `/`-separated and relative to the root (`''` for the root itself). */
  readonly folder: string;
  /** The entry that changed, or null when the watch could not say (anything in the folder may have). */
  readonly name: string | null;
}

/**
 * The files of the open workspace roots, as quick open and vault search see them (ADR 76): one
 * list per root, walked once and kept current by the host's folder watches, hidden entries and
 * protected folders left out. Paths are `/`-separated and relative to their root. Core reads no
 * file's meaning: a plugin that indexes what files say (links) reads them with `readText`.
 */
export interface WorkspaceFiles {
  /** The canonical workspace root that holds `filePath` (an absolute path), or null. */
  rootOf(filePath: string): string | null;
  /** The root's files once its first walk is done (the index starts on first use). */
  list(root: string): Promise<readonly string[]>;
  /** Hears every change in a followed folder of the root. */
  onChange(root: string, listener: (change: WorkspaceFileChange) => void): Disposable;
  /**
   * The text of a file of the root: a regular file, UTF-8, at most `maxBytes` long; null for
   * anything else (gone, too large, not text, outside the root) — skipped, never thrown.
   */
  readText(root: string, relativePath: string, maxBytes: number): Promise<string | null>;
}
