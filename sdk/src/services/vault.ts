/**
 * The file scope of the host: the open workspace roots and the folders of open
 * documents. Every path from a tool argument goes through `resolve` first.
 */
export interface Vault {
  /** Canonical (symlink-resolved) workspace roots, in the order they were opened. */
  roots(): readonly string[];
  /**
   * Resolves `input` inside the scope and returns its canonical path. Relative
   * paths resolve against the first workspace root. A file that does not exist
   * yet is checked through its parent folder.
   * @throws DomainError `INVALID_PATH` with the reason.
   */
  resolve(input: string): Promise<string>;
  /**
   * The canonical (symlink-resolved) path of an existing folder, anywhere: what a
   * person is asked to consent to before it joins the scope. Absolute paths only.
   * @throws DomainError `INVALID_PATH`.
   */
  canonicalFolder(input: string): Promise<string>;
}
