import { basename, isAbsolute } from 'node:path';

/** A workflow file inside a repository: `<root>/.github/workflows/<name>`. */
const IN_WORKFLOWS_DIR = /^(.*?)[\\/]\.github[\\/]workflows[\\/]([^\\/]+)$/;

/** The name given to the linter for a document that was never saved. */
export const UNTITLED_NAME = 'untitled.yml';

/**
 * The file name actionlint is told the text came from. It appears in actionlint's own output and,
 * for the native binary, is what `paths:` entries of `.github/actionlint.yaml` are matched against,
 * so it is always the repository-relative spelling `.github/workflows/<name>` rather than an
 * absolute path (which would leak the user's directory layout into messages, too).
 */
export function linterFileName(filePath: string | null): string {
  if (filePath === null || filePath === '') return UNTITLED_NAME;
  return `.github/workflows/${basename(filePath)}`;
}

/**
 * The repository root of a saved workflow, when the document sits in `<root>/.github/workflows/`.
 * The native binary is started there so that it finds the project's `.github/actionlint.yaml`
 * (custom runner labels, config variables) exactly as `actionlint` run in the repository would.
 */
export function repositoryRootOf(filePath: string | null): string | null {
  if (filePath === null || !isAbsolute(filePath)) return null;
  const match = IN_WORKFLOWS_DIR.exec(filePath);
  if (match === null) return null;
  const root = match[1] ?? '';
  // `/.github/workflows/x.yml` and `C:\.github\workflows\x.yml`: the root is the filesystem root.
  if (root === '') return '/';
  return /^[A-Za-z]:$/.test(root) ? `${root}\\` : root;
}
