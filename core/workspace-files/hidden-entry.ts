/** Hidden entries the file list leaves out; `.github` stays, since workflows are documents. */
const HIDDEN = /^\.(?!github$)/;

/** Whether the file list (and quick open, which shows the same files) leaves an entry of this name out. */
export function isHiddenEntry(name: string): boolean {
  return HIDDEN.test(name);
}
