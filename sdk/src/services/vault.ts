/** What is at a path, for a person to decide on: see `Vault.probeFolder`. */
export interface FolderProbe {
  /**
   * The canonical (symlink-resolved) path: of the folder, or of whatever is there; for a
   * path that does not exist, of its nearest existing parent with the rest appended.
   */
  readonly path: string;
  /**
   * `unreadable`: something is there that the host may not read (no permission, a loop of links);
   * `protected`: it leads into a `.vmark` folder or `$VMARK_HOME`, which never join the scope.
   */
  readonly state: 'folder' | 'not-folder' | 'missing' | 'unreadable' | 'protected';
}

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
  /**
   * What `input` is and resolves to, anywhere, without failing on what the disk holds:
   * what a person is shown before they consent. Never pass the answer on to a client
   * before a person has decided: it tells what exists and where links lead.
   * @throws DomainError `INVALID_PATH` only for input refused without looking at the
   *   disk (relative, blank, a NUL byte).
   */
  probeFolder(input: string): Promise<FolderProbe>;
}
