import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type {
  ChangeOrigin,
  Disposable,
  DiskConflict,
  DocumentKinds,
  DocumentSnapshot,
  DocumentStore,
  HostHooks,
  ReplaceOptions,
  SaveOutcome,
  Vault,
} from '@vmark/sdk';
import { DocumentKindsToken, DomainError, staleError, VaultToken } from '@vmark/sdk';
import { inject, injectable } from 'inversify';
import { HostHooksToken } from '../container/host-tokens.js';
import { writeFileAtomic } from '../vault/atomic-write.js';
import { changedOnDisk, type DiskState, diskStateOf } from '../vault/file-fingerprint.js';
import { FolderWatcher } from './folder-watcher.js';
import { readTextFile } from './read-text-file.js';
import { newRevision } from './revision.js';
import { KeyedQueue } from './keyed-queue.js';

export { MAX_DOCUMENT_BYTES } from './read-text-file.js';

interface ConflictState {
  readonly reason: DiskConflict['reason'];
  /** The disk as it was when the conflict was found (null: no file). */
  readonly observed: DiskState | null;
  /** Someone was shown the conflict; a deliberate save may now overwrite `observed`. */
  acknowledged: boolean;
}

interface DocumentRecord {
  readonly id: string;
  filePath: string | null;
  content: string;
  revision: string;
  kind: string;
  dirty: boolean;
  /** The file as this host last read or wrote it; null when it knows of no file at `filePath`. */
  disk: DiskState | null;
  conflict: ConflictState | null;
  watch: Disposable | null;
}

const CONFLICT_MESSAGES: Record<DiskConflict['reason'], string> = {
  'changed-on-disk':
    'The file changed on disk while this tab had unsaved changes. The tab keeps its text; the file keeps ' +
    'the other version. Saving now overwrites the file on disk; closing the tab with force and opening the ' +
    'file again takes the version on disk.',
  'deleted-on-disk':
    'The file was deleted or moved away on disk. The tab keeps its text; saving writes the file again.',
};

/** The single authority over each document's text, and its link to the file on disk. */
@injectable()
export class HostDocumentStore implements DocumentStore {
  #records = new Map<string, DocumentRecord>();
  #nextId = 1;
  /** Disk operations on one document run one after another, so a check and the write after it cannot interleave. */
  readonly #queue = new KeyedQueue();

  constructor(
    @inject(DocumentKindsToken) private readonly kinds: DocumentKinds,
    @inject(HostHooksToken) private readonly hooks: HostHooks,
    @inject(VaultToken) private readonly vault: Vault,
    @inject(FolderWatcher) private readonly watcher: FolderWatcher,
  ) {}

  /** Reads a file (already resolved to its canonical path) into a new buffer. */
  async open(canonicalPath: string): Promise<DocumentSnapshot> {
    const { content, disk } = await readTextFile(canonicalPath);
    return this.#add(canonicalPath, content, disk);
  }

  /** A new untitled buffer of a given kind. */
  createUntitled(kind: string, content = ''): DocumentSnapshot {
    if (!this.kinds.list().includes(kind)) {
      throw new DomainError('INTERNAL', `kind must be one of: ${this.kinds.list().join(', ')}`);
    }
    return this.#add(null, content, null, kind);
  }

  findByPath(canonicalPath: string): DocumentSnapshot | undefined {
    for (const record of this.#records.values()) {
      if (record.filePath === canonicalPath) return snapshotOf(record);
    }
    return undefined;
  }

  get(documentId: string): DocumentSnapshot {
    return snapshotOf(this.#record(documentId));
  }

  read(documentId: string, origin: ChangeOrigin): DocumentSnapshot {
    const record = this.#record(documentId);
    if (record.conflict && origin.kind !== 'disk') record.conflict.acknowledged = true;
    const document = snapshotOf(record);
    this.hooks.documentRead.call({ document, origin });
    return document;
  }

  async replace(documentId: string, content: string, options: ReplaceOptions): Promise<DocumentSnapshot> {
    const record = this.#record(documentId);
    if (options.expectedRevision !== undefined && options.expectedRevision !== record.revision) {
      throw staleError(record.revision);
    }
    if (content === record.content) return snapshotOf(record);
    const before = snapshotOf(record);
    const proposal = await this.hooks.beforeDocumentWrite.promise({
      document: before,
      content,
      origin: options.origin,
    });
    if (proposal.veto !== undefined) {
      throw new DomainError('READ_ONLY', `The change was refused: ${proposal.veto}`);
    }
    // The hook is asynchronous: another change may have landed while it ran.
    if (record.revision !== before.revision) throw staleError(record.revision);
    this.#setContent(record, proposal.content, true);
    const after = snapshotOf(record);
    this.hooks.documentWritten.call({ before, after, origin: options.origin });
    return after;
  }

  save(documentId: string): Promise<DocumentSnapshot> {
    return this.#queue.run(documentId, () => this.#save(documentId));
  }

  async trySave(documentId: string): Promise<SaveOutcome> {
    const document = this.get(documentId);
    if (document.filePath === null)
      return { revision: document.revision, saved: false, save_skipped: 'untitled' };
    if (!document.dirty) return { revision: document.revision, saved: true };
    try {
      const saved = await this.save(documentId);
      return { revision: saved.revision, saved: !saved.dirty };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { revision: this.get(documentId).revision, saved: false, save_error: reason };
    }
  }

  /**
   * Writes the buffer to a new file (a canonical path inside the scope) and
   * makes that the document's file. Never overwrites another existing file.
   */
  saveAs(documentId: string, canonicalTarget: string): Promise<DocumentSnapshot> {
    return this.#queue.run(documentId, async () => {
      const record = this.#record(documentId);
      if (record.filePath === canonicalTarget) return this.#save(documentId);
      if (await stat(canonicalTarget).catch(() => null)) {
        throw new DomainError(
          'INVALID_PATH',
          `${JSON.stringify(canonicalTarget)} already exists; vmark does not overwrite another file with save_as`,
        );
      }
      const bytes = Buffer.from(record.content, 'utf8');
      const written = await writeFileAtomic(canonicalTarget, bytes);
      record.watch?.dispose();
      record.filePath = canonicalTarget;
      record.disk = diskStateOf(written, bytes);
      record.conflict = null;
      record.dirty = false;
      record.kind = this.kinds.detect(record.filePath, record.content);
      record.watch = this.#watch(record);
      const saved = snapshotOf(record);
      this.hooks.documentSaved.call({ document: saved });
      return saved;
    });
  }

  /** Forgets a buffer (its tab was closed). */
  discard(documentId: string): void {
    const record = this.#records.get(documentId);
    record?.watch?.dispose();
    this.#records.delete(documentId);
  }

  /**
   * Brings the buffer in line with its file after a change on disk: a clean
   * buffer reloads (a new revision); a dirty one keeps its text and records a
   * conflict. A file renamed within its folder is followed by its inode.
   */
  syncFromDisk(documentId: string): Promise<void> {
    return this.#queue.run(documentId, () => this.#sync(documentId));
  }

  dispose(): void {
    for (const record of this.#records.values()) record.watch?.dispose();
  }

  async #save(documentId: string): Promise<DocumentSnapshot> {
    const record = this.#record(documentId);
    if (record.filePath === null) {
      throw new DomainError('INVALID_PATH', 'The document is untitled; save it with workspace.save_as');
    }
    const target = await this.vault.resolve(record.filePath);
    if ((await changedOnDisk(target, record.disk)) && !(await this.#mayOverwrite(record, target))) {
      throw new DomainError(
        'STALE',
        `${JSON.stringify(target)} changed on disk since vmark last read or wrote it; not overwritten. ` +
          'Read the document to see the conflict, then save again to overwrite the file on purpose.',
        { current_revision: record.revision, conflict: 'changed-on-disk' },
      );
    }
    const revision = record.revision;
    const bytes = Buffer.from(record.content, 'utf8');
    record.disk = diskStateOf(await writeFileAtomic(target, bytes), bytes);
    record.conflict = null;
    // A change that arrived while the file was being written is not on disk yet.
    if (record.revision === revision) record.dirty = false;
    const saved = snapshotOf(record);
    this.hooks.documentSaved.call({ document: saved });
    return saved;
  }

  /** A known conflict, shown to someone, over bytes that have not changed again since. */
  async #mayOverwrite(record: DocumentRecord, target: string): Promise<boolean> {
    const conflict = record.conflict;
    return conflict !== null && conflict.acknowledged && !(await changedOnDisk(target, conflict.observed));
  }

  async #sync(documentId: string): Promise<void> {
    const record = this.#records.get(documentId);
    if (!record?.filePath || !(await changedOnDisk(record.filePath, record.disk))) return;
    const now = await stat(record.filePath, { bigint: true }).catch(() => null);
    if (now === null) {
      const renamedTo = record.disk && (await findByInode(path.dirname(record.filePath), record.disk.ino));
      if (renamedTo && !(await changedOnDisk(renamedTo, record.disk))) {
        record.filePath = renamedTo;
        record.kind = this.kinds.detect(record.filePath, record.content);
        return;
      }
      this.#conflict(record, 'deleted-on-disk', null);
      return;
    }
    if (record.dirty || record.conflict) {
      const observed = await readTextFile(record.filePath).then(
        (file) => file.disk,
        () => null,
      );
      this.#conflict(record, 'changed-on-disk', observed);
      return;
    }
    const file = await readTextFile(record.filePath).catch(() => null);
    if (file === null) {
      this.#conflict(record, 'changed-on-disk', null);
      return;
    }
    const before = snapshotOf(record);
    record.disk = file.disk;
    if (file.content === record.content) return;
    this.#setContent(record, file.content, false);
    this.hooks.documentWritten.call({ before, after: snapshotOf(record), origin: { kind: 'disk' } });
  }

  #conflict(record: DocumentRecord, reason: DiskConflict['reason'], observed: DiskState | null): void {
    const same = record.conflict?.reason === reason && record.conflict.observed?.sha256 === observed?.sha256;
    if (!same) record.conflict = { reason, observed, acknowledged: false };
    // The buffer no longer matches anything on disk, so closing it must ask first.
    record.dirty = true;
  }

  #setContent(record: DocumentRecord, content: string, dirty: boolean): void {
    record.content = content;
    record.kind = this.kinds.detect(record.filePath, content);
    record.revision = newRevision();
    record.dirty = dirty;
  }

  #add(
    filePath: string | null,
    content: string,
    disk: DiskState | null,
    kind = this.kinds.detect(filePath, content),
  ): DocumentSnapshot {
    const record: DocumentRecord = {
      id: `doc-${this.#nextId++}`,
      filePath,
      content,
      revision: newRevision(),
      kind,
      dirty: false,
      disk,
      conflict: null,
      watch: null,
    };
    record.watch = this.#watch(record);
    this.#records.set(record.id, record);
    return snapshotOf(record);
  }

  #watch(record: DocumentRecord): Disposable | null {
    if (record.filePath === null) return null;
    let timer: NodeJS.Timeout | undefined;
    const watch = this.watcher.watchFolderOf(record.filePath, () => {
      // Editors write in several steps; look once they have settled.
      clearTimeout(timer);
      timer = setTimeout(() => void this.syncFromDisk(record.id).catch(() => undefined), 30);
    });
    return { dispose: () => (clearTimeout(timer), watch.dispose()) };
  }

  #record(documentId: string): DocumentRecord {
    const record = this.#records.get(documentId);
    if (!record) throw new DomainError('INVALID_TAB', 'No document for tab');
    return record;
  }
}

function snapshotOf(record: DocumentRecord): DocumentSnapshot {
  const { id, filePath, content, revision, kind, dirty, conflict } = record;
  const snapshot = { id, filePath, content, revision, kind, dirty };
  return conflict
    ? { ...snapshot, conflict: { reason: conflict.reason, message: CONFLICT_MESSAGES[conflict.reason] } }
    : snapshot;
}

/** The entry of `folder` with this inode: where a file renamed within its folder went. */
async function findByInode(folder: string, ino: bigint): Promise<string | null> {
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const candidate = path.join(folder, name);
    const info = await stat(candidate, { bigint: true }).catch(() => null);
    if (info?.isFile() && info.ino === ino) return candidate;
  }
  return null;
}
