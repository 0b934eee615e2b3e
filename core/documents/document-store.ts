import { open as fsOpen } from 'node:fs/promises';
import type {
  ChangeOrigin,
  DocumentKinds,
  DocumentSnapshot,
  DocumentStore,
  HostHooks,
  ReplaceOptions,
  Vault,
} from '@vmark/sdk';
import { DocumentKindsToken, DomainError, staleError, VaultToken } from '@vmark/sdk';
import { inject, injectable } from 'inversify';
import { HostHooksToken } from '../container/host-tokens.js';
import { writeFileAtomic } from '../vault/atomic-write.js';
import { changedOnDisk, type DiskState, diskStateOf } from '../vault/file-fingerprint.js';
import { newRevision } from './revision.js';

/** Larger files are refused on open: a Markdown editor has no use for them and they would exhaust memory. */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

interface DocumentRecord {
  readonly id: string;
  filePath: string | null;
  content: string;
  revision: string;
  kind: string;
  dirty: boolean;
  /** The file as this host last read or wrote it; null when it knows of no file at `filePath`. */
  disk: DiskState | null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The single authority over each document's text. */
@injectable()
export class HostDocumentStore implements DocumentStore {
  #records = new Map<string, DocumentRecord>();
  #nextId = 1;
  /** Saves of one document run one after another, so the on-disk check and the write cannot interleave. */
  #saveQueue = new Map<string, Promise<unknown>>();

  constructor(
    @inject(DocumentKindsToken) private readonly kinds: DocumentKinds,
    @inject(HostHooksToken) private readonly hooks: HostHooks,
    @inject(VaultToken) private readonly vault: Vault,
  ) {}

  /** Reads a file (already resolved to its canonical path) into a new buffer. */
  async open(canonicalPath: string): Promise<DocumentSnapshot> {
    const quoted = JSON.stringify(canonicalPath);
    const handle = await fsOpen(canonicalPath, 'r').catch(() => null);
    if (handle === null) throw new DomainError('INVALID_PATH', `${quoted} is not a readable file`);
    try {
      // One handle for the stat and the bytes, so the two describe the same file.
      const stats = await handle.stat({ bigint: true });
      if (!stats.isFile()) throw new DomainError('INVALID_PATH', `${quoted} is not a readable file`);
      if (stats.size > MAX_DOCUMENT_BYTES) {
        throw new DomainError('INVALID_PATH', `${quoted} is larger than ${MAX_DOCUMENT_BYTES} bytes`);
      }
      const bytes = await handle.readFile();
      let content: string;
      try {
        content = utf8.decode(bytes);
      } catch {
        throw new DomainError('INVALID_PATH', `${quoted} is not UTF-8 text`);
      }
      return this.#add(canonicalPath, content, diskStateOf(stats, bytes), false);
    } finally {
      await handle.close();
    }
  }

  /** A new untitled buffer of a given kind. */
  createUntitled(kind: string, content = ''): DocumentSnapshot {
    if (!this.kinds.list().includes(kind)) {
      throw new DomainError('INTERNAL', `kind must be one of: ${this.kinds.list().join(', ')}`);
    }
    return this.#add(null, content, null, false, kind);
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
    const document = this.get(documentId);
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
    record.content = proposal.content;
    record.kind = this.kinds.detect(record.filePath, record.content);
    record.revision = newRevision();
    record.dirty = true;
    const after = snapshotOf(record);
    this.hooks.documentWritten.call({ before, after, origin: options.origin });
    return after;
  }

  save(documentId: string): Promise<DocumentSnapshot> {
    const previous = this.#saveQueue.get(documentId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.#save(documentId));
    this.#saveQueue.set(documentId, next);
    return next.finally(() => {
      if (this.#saveQueue.get(documentId) === next) this.#saveQueue.delete(documentId);
    });
  }

  async #save(documentId: string): Promise<DocumentSnapshot> {
    const record = this.#record(documentId);
    if (record.filePath === null) {
      throw new DomainError('INVALID_PATH', 'The document is untitled; save it with workspace.save_as');
    }
    const target = await this.vault.resolve(record.filePath);
    if (await changedOnDisk(target, record.disk)) {
      throw new DomainError(
        'STALE',
        `${JSON.stringify(target)} changed on disk since vmark last read or wrote it; not overwritten`,
        { current_revision: record.revision, conflict: 'changed-on-disk' },
      );
    }
    const revision = record.revision;
    const bytes = Buffer.from(record.content, 'utf8');
    record.disk = diskStateOf(await writeFileAtomic(target, bytes), bytes);
    // A change that arrived while the file was being written is not on disk yet.
    if (record.revision === revision) record.dirty = false;
    const saved = snapshotOf(record);
    this.hooks.documentSaved.call({ document: saved });
    return saved;
  }

  #add(
    filePath: string | null,
    content: string,
    disk: DiskState | null,
    dirty: boolean,
    kind = this.kinds.detect(filePath, content),
  ): DocumentSnapshot {
    const record: DocumentRecord = {
      id: `doc-${this.#nextId++}`,
      filePath,
      content,
      revision: newRevision(),
      kind,
      dirty,
      disk,
    };
    this.#records.set(record.id, record);
    return snapshotOf(record);
  }

  #record(documentId: string): DocumentRecord {
    const record = this.#records.get(documentId);
    if (!record) throw new DomainError('INVALID_TAB', 'No document for tab');
    return record;
  }
}

function snapshotOf(record: DocumentRecord): DocumentSnapshot {
  const { id, filePath, content, revision, kind, dirty } = record;
  return { id, filePath, content, revision, kind, dirty };
}
