/**
 * The WebSocket requests of the file list's operations (issue 19 item 4, ADR 70): types only,
 * merged into `protocol.ts`'s `Requests`, shared by the host's UI server and the renderer. Paths
 * are absolute, as `tree.list` gives them; names are one segment, kept exactly as typed.
 */

/** What a rename or move did to the links to the moved notes in other notes. */
export interface LinkUpdate {
  /** Links rewritten, in all notes. */
  readonly links: number;
  /** Notes rewritten: each has a checkpoint, restorable from History. */
  readonly notes: number;
  /** Notes that needed a change and were left as they are, with why (unsaved changes in a tab). */
  readonly left: readonly string[];
}

export interface MovedEntry {
  /** Where the entry is now. */
  readonly path: string;
  readonly linkUpdate: LinkUpdate;
}

export interface FilesRequests {
  /**
   * A new empty file or folder named `name` in `folder`. Never replaces: a taken name is refused,
   * or, with `unique`, numbered (`Untitled 2.md`).
   */
  'files.create': {
    params: { folder: string; name: string; type: 'file' | 'folder'; unique?: boolean };
    result: { path: string };
  };
  /** Renames the entry in its folder; links to the notes it holds are updated. */
  'files.rename': { params: { path: string; name: string }; result: MovedEntry };
  /** Moves the entry into `folder` (a drag in the file list); links are updated. */
  'files.move': { params: { path: string; folder: string }; result: MovedEntry };
  /**
   * Moves the entry to the trash: the system's (freedesktop) where vmark can use it, else the
   * workspace's `.trash/`. Tabs of its files close, but those with unsaved changes, which keep
   * their text (`keptTabs`). `trashId` undoes it with `files.restore`.
   */
  'files.delete': {
    params: { path: string };
    result: { trashId: string; where: 'system' | 'workspace'; keptTabs: number };
  };
  /** Puts a deleted entry back where it was, unless that name is taken now. */
  'files.restore': { params: { trashId: string }; result: { path: string } };
  /** A copy beside the entry: `Plan copy.md`, `Plan copy 2.md`, … */
  'files.duplicate': { params: { path: string }; result: { path: string } };
}
