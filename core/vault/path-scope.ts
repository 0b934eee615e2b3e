/**
 * The pure half of the path scope guard: string checks and lexical resolution,
 * no file system access. `resolve-in-scope.ts` adds the realpath half.
 */
import path from 'node:path';
import { DomainError } from '@vmark/sdk';

/**
 * Renders a path for an error message. JSON quoting makes control characters,
 * NUL bytes and trailing spaces visible instead of silently misleading.
 */
export function quotePath(value: unknown): string {
  try {
    // `undefined`, functions and symbols stringify to undefined; bigints and cycles throw.
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

/** The one error every refusal of the scope guard throws. */
export function invalidPath(input: unknown, reason: string): DomainError {
  return new DomainError('INVALID_PATH', `Path ${quotePath(input)} ${reason}`);
}

/**
 * Whether `candidate` is `root` or lies below it. Both must be absolute and
 * normalized. Compares whole segments, so `/root` does not contain `/root-evil`.
 */
export function isWithinRoot(candidate: string, root: string): boolean {
  if (candidate === root) return true;
  // A file system root (`/`, `C:\`) already ends with the separator.
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}

/**
 * Turns untrusted input into an absolute, normalized path without touching the
 * disk. Relative input resolves against `base` (refused when there is none).
 * Never trims: `"a.md "` is a different file from `"a.md"`.
 * @throws DomainError `INVALID_PATH` for non-strings, empty or blank input, NUL bytes.
 */
export function lexicalResolve(input: string, base: string | undefined): string {
  // Callers pass tool arguments; the type is a promise the wire does not keep.
  if (typeof input !== 'string') throw invalidPath(input, 'must be a string');
  if (input.trim() === '') throw invalidPath(input, 'must not be empty');
  // The OS would cut the path at the NUL and act on a different file.
  if (input.includes('\0')) throw invalidPath(input, 'contains a NUL byte');
  if (path.isAbsolute(input)) return path.resolve(input);
  if (base === undefined) {
    throw invalidPath(input, 'is relative and there is no folder to resolve it against');
  }
  // A relative base would silently resolve against the process's cwd.
  if (!path.isAbsolute(base)) throw new TypeError(`lexicalResolve: base ${quotePath(base)} is not absolute`);
  return path.resolve(base, input);
}
