import { appendFile, lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type {
  ChangeOrigin,
  Disposable,
  DiskConflict,
  DocumentKinds,
  DocumentSnapshot,
  DocumentStore,
  HostHooks,
  RangeReplacement,
  ReadOptions,
  ReplaceOptions,
  SaveAsOptions,
  SaveOutcome,
  Vault,
  WriteOptions,
  WriteProposal,
} from '@vmark/sdk';
import {
  ArgumentError,
  DocumentKindsToken,
  DomainError,
  isDomainError,
  KeyedQueue,
  staleError,
  VaultToken,
} from '@vmark/sdk';
import { ChangeSet } from '@codemirror/state';
import { inject, injectable } from 'inversify';
import { HostHooksToken, HostOptionsToken } from '../tokens/host-tokens.js';
import type { HostOptions } from '../tokens/host-options.js';
import { LogHub } from '../log/log-hub.js';
import { changedOnDisk, type DiskState } from '../vault/file-fingerprint.js';
import { withFileLock } from '../vault/file-lock.js';
import { type FoundFile, type GuardedOutcome, replaceIfUnchanged } from '../vault/guarded-replace.js';
import type { LateWrite } from '../vault/late-writes.js';
import { type LockSources, lockSourcesOfHome } from '../vault/lock-source.js';
import { quotePath } from '../vault/path-scope.js';
import { sweepTempFiles } from '../vault/sweep-temp-files.js';
import { saveLockPathFor } from '../vault/temp-files.js';
import { FolderWatcher } from './folder-watcher.js';
import { readTextBytes, readTextFile } from './read-text-file.js';
import { DocumentText } from './document-text.js';
import { newRevision } from './revision.js';
import { WriteAcks } from './write-acks.js';

export { MAX_DOCUMENT_BYTES } from './read-text-file.js';

interface ConflictState {
  readonly reason: DiskConflict['reason'];
  /** The disk as it was when the conflict was found (null: no file). */
  readonly observed: DiskState | null;
  /** The text on disk then; null when there was no file or it was not UTF-8 text. */
  readonly observedText: string | null;
  /**
   * Revisions of the buffer whose author had been shown the disk's text (a `document.read`
   * serves it with the conflict): saving one of them may overwrite `observed`, nothing else.
   */
  readonly informed: Set<string>;
}

interface DocumentRecord {
  readonly id: string;
  filePath: string | null;
  text: DocumentText;
  revision: string;
  kind: string;
  /** The text differs from the file as this host last read or wrote it. */
  edited: boolean;
  /** The file as this host last read or wrote it; null when it knows of no file at `filePath`. */
  disk: DiskState | null;
  conflict: ConflictState | null;
  watch: Disposable | null;
}

const CONFLICT_MESSAGES: Record<DiskConflict['reason'], string> = {
  'changed-on-disk':
    'The file changed on disk while this tab had unsaved changes. The tab keeps its text (content); ' +
    'disk_content is the text now on disk. Merge what you need into your next write: a write with this ' +
    "read's revision as expected_revision, or a save, replaces the file on disk. Closing the tab with " +
    'force and opening the file again takes the version on disk instead.',
  'deleted-on-disk':
    'The file was deleted or moved away on disk. The tab keeps its text; a write with this read’s ' +
    'revision as expected_revision, or a save, writes the file again.',
};

/** Quiet time after a change on disk before the file is read again. */
const SETTLE_MS = 30;
/** The longest a stream of changes may put that read off. */
const SETTLE_MAX_MS = 100;

/**
 * The single authority over each document's text, and its link to the file on disk.
 *
 * Every change to a document — a tool's write, an editor's keystrokes, a reload from disk, a
 * save — runs in the document's queue, one after another, so that a reload never replaces a
 * buffer that changed meanwhile and a save writes exactly the text it checked. Reads are not
 * queued: they see the last change that finished.
 */
@injectable()
export class HostDocumentStore implements DocumentStore {
  #records = new Map<string, DocumentRecord>();
  #nextId = 1;
  readonly #queue = new KeyedQueue();
  /** The change each `documentWritten` event's `after` was made with, where it is known (a range write). */
  readonly #changesOf = new WeakMap<DocumentSnapshot, ChangeSet>();
  /** Folders already cleared of temp files that a crashed vmark left (once per host). */
  readonly #swept = new Set<string>();
  /** What the save locks are taken with (ADR 87). */
  readonly #lockSources: LockSources | undefined;
  /** How long a save or a replay waits for a lock another holder keeps (the lock's default if unset). */
  readonly #lockTimeoutMs: number | undefined;

  constructor(
    @inject(DocumentKindsToken) private readonly kinds: DocumentKinds,
    @inject(HostHooksToken) private readonly hooks: HostHooks,
    @inject(VaultToken) private readonly vault: Vault,
    @inject(FolderWatcher) private readonly watcher: FolderWatcher,
    @inject(LogHub) private readonly log: LogHub,
    @inject(WriteAcks) private readonly acks: WriteAcks,
    // Optional for tests that build a store by hand: their save locks are created, as before.
    @inject(HostOptionsToken) options?: Pick<HostOptions, 'home'> & { readonly saveLockTimeoutMs?: number },
  ) {
    this.#lockSources = options && lockSourcesOfHome(options.home);
    this.#lockTimeoutMs = options?.saveLockTimeoutMs;
  }

  /** Reads a file (already resolved to its canonical path) into a new buffer. */
  async open(canonicalPath: string): Promise<DocumentSnapshot> {
    const { bytes, disk } = await readTextBytes(canonicalPath);
    this.#sweep(path.dirname(canonicalPath));
    // Decoded when first read; the bytes read go to the first editor as they are (ADRs 92, 100).
    return this.#add(canonicalPath, DocumentText.ofUtf8(bytes), disk);
  }

  /** A new untitled buffer of a given kind. */
  /**
   * A new untitled document. Without a `kind`, the kind its plugins give an untitled document
   * with this text (the document plugin's Markdown): core names no kind itself.
   */
  createUntitled(requested?: string, content = ''): DocumentSnapshot {
    const kind = requested ?? this.kinds.detect(null, content);
    if (!this.kinds.list().includes(kind)) {
      throw new DomainError('INTERNAL', `kind must be one of: ${this.kinds.list().join(', ')}`);
    }
    return this.#add(null, DocumentText.of(content), null, kind);
  }

  findByPath(canonicalPath: string): DocumentSnapshot | undefined {
    const record = this.#recordAt(canonicalPath);
    return record && snapshotOf(record);
  }

  get(documentId: string): DocumentSnapshot {
    return snapshotOf(this.#record(documentId));
  }

  /** The text a document holds now, as the store keeps it: the editors' authority applies their changes to it. */
  textOf(documentId: string): DocumentText {
    return this.#record(documentId).text;
  }

  read(documentId: string, origin: ChangeOrigin, options: ReadOptions = {}): DocumentSnapshot {
    const record = this.#record(documentId);
    // An AI client is served the disk's text with the conflict: what it writes next may replace it.
    if (record.conflict && origin.kind === 'mcp' && options.whole !== false) {
      record.conflict.informed.add(record.revision);
    }
    const document = snapshotOf(record);
    this.hooks.documentRead.call({ document, origin });
    return document;
  }

  /** `content` may be a `DocumentText` (an editor's changes applied to the rope: no copy of the text). */
  replace(
    documentId: string,
    content: string | DocumentText,
    options: ReplaceOptions,
  ): Promise<DocumentSnapshot> {
    return this.#replaceWith(documentId, options, () =>
      typeof content === 'string' ? DocumentText.of(content) : content,
    );
  }

  replaceRange(
    documentId: string,
    { from, to, insert }: RangeReplacement,
    options: ReplaceOptions,
  ): Promise<DocumentSnapshot> {
    return this.#replaceWith(documentId, options, ({ text }) => {
      if (!(Number.isInteger(from) && Number.isInteger(to) && 0 <= from && from <= to && to <= text.length)) {
        throw new ArgumentError(`The range ${from}–${to} is not inside the text (0–${text.length})`);
      }
      // Applied to the rope: a few nodes, and the editors are sent this change, not a diff of two texts.
      return text.apply(ChangeSet.of({ from, to, insert }, text.length, '\n'));
    });
  }

  /**
   * The change `after` (a `documentWritten` event's) was made with, when the store knows it (a
   * range write): the editors need not diff the two texts for it. Undefined otherwise.
   */
  changesOf(after: DocumentSnapshot): ChangeSet | undefined {
    return this.#changesOf.get(after);
  }

  write(documentId: string, written: string, options: WriteOptions): Promise<SaveOutcome> {
    const content = DocumentText.of(written);
    return this.#acknowledged(documentId, async () => {
      const record = this.#record(documentId);
      checkRevision(record, options.expectedRevision);
      if (!options.save || record.filePath === null) {
        const proposed = await this.#propose(record, content, options);
        if (proposed !== null) this.#applyEdit(record, proposed, options);
        const skipped = options.save ? 'untitled' : 'opt_out';
        return { revision: record.revision, saved: false, save_skipped: skipped };
      }
      // Unsaved changes of someone else's, or a conflict: the write joins them and the save decides.
      if (record.edited || record.conflict) {
        const proposed = await this.#propose(record, content, options);
        if (proposed !== null) this.#applyEdit(record, proposed, options);
        return this.#saveReporting(record);
      }
      const proposed = await this.#propose(record, content, options);
      if (proposed === null) return { revision: record.revision, saved: true };
      return this.#writeThrough(record, proposed, options);
    });
  }

  save(documentId: string): Promise<DocumentSnapshot> {
    return this.#queue.run(documentId, () => this.#save(this.#record(documentId)));
  }

  trySave(documentId: string): Promise<SaveOutcome> {
    return this.#queue.run(documentId, async () => {
      const record = this.#record(documentId);
      if (record.filePath === null)
        return { revision: record.revision, saved: false, save_skipped: 'untitled' };
      if (!isDirty(record)) return { revision: record.revision, saved: true };
      return this.#saveReporting(record);
    });
  }

  annotate(filePath: string, edit: (text: string) => string | null): Promise<string> {
    return this.vault.resolve(filePath).then((canonical) => {
      const open = this.#recordAt(canonical);
      return this.#queue.run(open?.id ?? `file:${canonical}`, () => this.#annotate(canonical, edit));
    });
  }

  /**
   * A person's answer to a conflict, in the editor: `keep-mine` saves the buffer over the file
   * (only if the file still holds the bytes the person was shown, `observedSha256`);
   * `take-disk` replaces the buffer with the file's text.
   * @throws DomainError `STALE` when the file changed again since.
   */
  resolveConflict(
    documentId: string,
    choice: 'keep-mine' | 'take-disk',
    observedSha256: string | null,
  ): Promise<DocumentSnapshot> {
    return this.#queue.run(documentId, async () => {
      const record = this.#record(documentId);
      const conflict = record.conflict;
      if (conflict === null) return snapshotOf(record);
      if ((conflict.observed?.sha256 ?? null) !== observedSha256) throw conflictError(record);
      if (choice === 'keep-mine') {
        conflict.informed.add(record.revision);
        return this.#save(record);
      }
      await this.#sync(record, { discardEdits: true });
      return snapshotOf(record);
    });
  }

  /**
   * Writes the buffer to another file (a canonical path inside the scope) and makes that the
   * document's file; to its own file, a plain save. Without `options.confirm` an existing file
   * is never overwritten. With it, the caller is told what is there first — nothing, or a text
   * file with its size and hash — outside the document's queue (a person may take minutes to
   * answer), and the save then does exactly that or nothing: `replaceIfUnchanged` replaces the
   * file only if it still holds the bytes described, or creates one only where none appeared.
   * A replaced file's text goes to the `fileReplaced` hook (the AI edit history keeps it).
   */
  async saveAs(
    documentId: string,
    canonicalTarget: string,
    options: SaveAsOptions = {},
  ): Promise<DocumentSnapshot> {
    if (this.#record(documentId).filePath === canonicalTarget) return this.save(documentId);
    const openElsewhere = this.#recordAt(canonicalTarget);
    if (openElsewhere !== undefined && openElsewhere.id !== documentId) {
      throw new DomainError(
        'INVALID_PATH',
        `${quotePath(canonicalTarget)} is open in another tab; save there, or close that tab first`,
      );
    }
    const existing = await existingTextFile(canonicalTarget);
    if (options.confirm === undefined && existing !== null) throw alreadyExists(canonicalTarget);
    await options.confirm?.({
      path: canonicalTarget,
      replaces: existing && { bytes: Number(existing.disk.size), sha256: existing.disk.sha256 },
    });
    return this.#acknowledged(documentId, async () => {
      const record = this.#record(documentId);
      const content = await this.#proposeSave(record, record.text.string, null);
      const outcome = await this.#replaceFile(record, canonicalTarget, content, existing?.disk ?? null);
      if (outcome.kind === 'changed') {
        if (existing === null) throw alreadyExists(canonicalTarget);
        throw new DomainError(
          'STALE',
          `${quotePath(canonicalTarget)} changed on disk after vmark looked at it for this save_as, so it ` +
            'was not replaced. Call save_as again: the file as it is now is what is asked about.',
          { current_revision: record.revision, conflict: 'changed-on-disk' },
        );
      }
      this.#setHostContent(record, content);
      record.watch?.dispose();
      record.filePath = canonicalTarget;
      record.disk = outcome.disk;
      record.conflict = null;
      record.edited = false;
      record.kind = this.#detect(record.filePath, record.text);
      record.watch = this.#watch(record);
      const saved = snapshotOf(record);
      if (existing !== null) {
        this.hooks.fileReplaced.call({
          document: saved,
          filePath: canonicalTarget,
          replacedContent: existing.content,
          origin: options.origin ?? { kind: 'host' },
        });
      }
      this.#saved(saved);
      return saved;
    });
  }

  /**
   * Runs a change in the document's queue and answers once what the change started elsewhere
   * (its checkpoint, what a `documentSaved` tap held) is durable too. Waited for outside the queue, so the next change to the
   * document does not queue behind this one's checkpoint.
   */
  /** A change to the buffer (not saved): `next` makes the text from the record's, in its turn. */
  #replaceWith(
    documentId: string,
    options: ReplaceOptions,
    next: (record: DocumentRecord) => DocumentText,
  ): Promise<DocumentSnapshot> {
    return this.#acknowledged(documentId, async () => {
      const record = this.#record(documentId);
      checkRevision(record, options.expectedRevision);
      const proposed = await this.#propose(record, next(record), options);
      if (proposed !== null) this.#applyEdit(record, proposed, options);
      return snapshotOf(record);
    });
  }

  async #acknowledged<T>(documentId: string, change: () => Promise<T>): Promise<T> {
    const result = await this.#queue.run(documentId, change);
    await this.acks.settled(documentId);
    return result;
  }

  /**
   * Runs `perform` (files or folders renamed or moved on disk by the person, from the file list)
   * while every open document at or under a moved path waits in its queue, then points those
   * documents at their new paths: text, revision, unsaved changes and conflict stay as they were,
   * and the file watch follows. `moves` are canonical paths; returns the documents that followed.
   */
  async followMoves<T>(
    moves: readonly { readonly from: string; readonly to: string }[],
    perform: () => Promise<T>,
  ): Promise<{ result: T; followed: { documentId: string; from: string; to: string }[] }> {
    // One move at a time (two windows may move at once), each looking at the paths as they are then.
    return this.#queue.run('files:move', async () => {
      const moving = [...this.#records.values()].flatMap((record) => {
        const to = record.filePath === null ? null : movedPath(record.filePath, moves);
        return to === null ? [] : [{ record, to }];
      });
      const hold = async (index: number): Promise<T> =>
        index === moving.length
          ? perform()
          : this.#queue.run(moving[index]!.record.id, () => hold(index + 1));
      const result = await hold(0);
      const followed = moving.map(({ record, to }) => {
        const from = record.filePath!;
        record.watch?.dispose();
        record.filePath = to;
        record.kind = this.#detect(to, record.text);
        record.watch = this.#watch(record);
        return { documentId: record.id, from, to };
      });
      return { result, followed };
    });
  }

  /** Forgets a buffer (its tab was closed). */
  discard(documentId: string): void {
    const record = this.#records.get(documentId);
    record?.watch?.dispose();
    this.#records.delete(documentId);
  }

  /**
   * Brings the buffer in line with its file after a change on disk: a buffer without unsaved
   * changes reloads (a new revision); one with them keeps its text and records a conflict.
   * A file renamed within its folder is followed by its inode.
   */
  syncFromDisk(documentId: string): Promise<void> {
    return this.#queue.run(documentId, async () => {
      const record = this.#records.get(documentId);
      if (record) await this.#sync(record, { discardEdits: false });
    });
  }

  dispose(): void {
    for (const record of this.#records.values()) record.watch?.dispose();
  }

  /**
   * The content a change would leave, after the `beforeDocumentWrite` taps; null when the
   * text would not change.
   * @throws DomainError `READ_ONLY` when a tap vetoes.
   */
  async #propose(
    record: DocumentRecord,
    content: DocumentText,
    options: ReplaceOptions,
  ): Promise<DocumentText | null> {
    if (record.text.equals(content)) return null;
    // The text is built for a tap only if it reads it: a keystroke in a rope stays a rope.
    const asked: WriteProposal = {
      document: snapshotOf(record),
      get content() {
        return content.string;
      },
      origin: options.origin,
    };
    const proposal = await this.hooks.beforeDocumentWrite.promise(asked);
    if (proposal.veto !== undefined) {
      throw new DomainError('READ_ONLY', `The change was refused: ${proposal.veto}`);
    }
    const proposed = proposal === asked ? content : DocumentText.of(proposal.content);
    return record.text.equals(proposed) ? null : proposed;
  }

  /** A change to the buffer that is not on disk yet. */
  #applyEdit(record: DocumentRecord, content: DocumentText, options: ReplaceOptions): void {
    const before = snapshotOf(record);
    const changes = content.changesSince(record.text);
    this.#setContent(record, content);
    record.edited = true;
    // A writer who was shown the disk's text may, through its write, replace it.
    const informed = record.conflict?.informed;
    if (informed && options.expectedRevision !== undefined && informed.has(options.expectedRevision)) {
      informed.add(record.revision);
    }
    const after = snapshotOf(record);
    if (changes !== null) this.#changesOf.set(after, changes);
    this.hooks.documentWritten.call({ before, after, origin: options.origin });
  }

  /**
   * A write to a buffer without unsaved changes. Its text is decided before the disk is touched,
   * so the buffer takes it first, unsaved (ADR 55): editors show it while the file is written,
   * and the save that follows marks it saved, or leaves it unsaved with the reason, as for a
   * person's edit. If the file changed on disk, nothing of the write is kept: the buffer takes
   * the file's text and the writer is told to read again (`STALE`), so it never replaces what
   * it has not seen. A change seen before the write (one lstat) keeps the write out of the
   * buffer altogether; one that lands between that look and the save takes it back out.
   */
  async #writeThrough(
    record: DocumentRecord,
    proposed: DocumentText,
    options: ReplaceOptions,
  ): Promise<SaveOutcome> {
    const content = await this.#proposeSave(record, proposed.string, options.origin);
    // What the host adds on saving may make the write what the document already holds.
    if (record.text.equals(content)) return { revision: record.revision, saved: true };
    const shownText = content === proposed.string ? proposed : DocumentText.of(content);
    const expected = record.disk;
    let shown = false;
    const show = () => {
      if (!shown) this.#applyEdit(record, shownText, options);
      shown = true;
    };
    let outcome;
    try {
      const target = await this.vault.resolve(record.filePath!);
      if (!(await changedOnDisk(target, expected))) show();
      outcome = await this.#replaceFile(record, target, content, expected);
    } catch (error) {
      // The file cannot be written (read-only, out of scope, busy): the change stays in the buffer.
      show();
      return { revision: record.revision, saved: false, save_error: messageOf(error) };
    }
    if (outcome.kind === 'changed') {
      if (outcome.found === null) {
        show();
        this.#conflictFound(record, 'deleted-on-disk', null);
        return { revision: record.revision, saved: false, save_error: CONFLICT_MESSAGES['deleted-on-disk'] };
      }
      this.#takeDisk(record, outcome.found);
      throw new DomainError(
        'STALE',
        `${quotePath(record.filePath)} changed on disk since vmark last read or wrote it, so nothing was ` +
          'written: the tab now holds the version on disk. Re-read with `document.read` and make your ' +
          'change again — do not write the old content back.',
        { current_revision: record.revision, conflict: 'changed-on-disk' },
      );
    }
    show();
    record.edited = false;
    record.disk = outcome.disk;
    this.#saved(snapshotOf(record));
    return { revision: record.revision, saved: true };
  }

  /**
   * The one way a document's text reaches its file (save, save_as, a tool's write): `content`
   * replaces `target` only if the file still holds `expected` (null: only where there is none),
   * and another program's write that lands just as it does is replayed, not lost.
   */
  #replaceFile(
    record: DocumentRecord,
    target: string,
    content: string,
    expected: DiskState | null,
  ): Promise<GuardedOutcome> {
    return replaceIfUnchanged(target, Buffer.from(content, 'utf8'), expected, {
      onLateWrite: (late) => this.#lateWrite(record.id, target, late),
      lockSources: this.#lockSources,
      lockTimeoutMs: this.#lockTimeoutMs,
    });
  }

  /** The bytes to save for `content`, with what the `beforeDocumentSave` taps add. */
  async #proposeSave(record: DocumentRecord, content: string, origin: ChangeOrigin | null): Promise<string> {
    const proposal = await this.hooks.beforeDocumentSave.promise({
      document: snapshotOf(record),
      content,
      origin,
    });
    return typeof proposal.content === 'string' ? proposal.content : content;
  }

  /** Tells the taps a document was saved; what they hold is waited for by `#acknowledged`. */
  #saved(document: DocumentSnapshot): void {
    this.hooks.documentSaved.call({ document, hold: (durable) => this.acks.hold(document.id, durable) });
  }

  /** Host-managed metadata entered the buffer: the text changes, the revision and dirty state do not. */
  #setHostContent(record: DocumentRecord, content: string): void {
    if (record.text.equals(content)) return;
    const before = snapshotOf(record);
    record.text = DocumentText.of(content);
    record.kind = this.kinds.detect(record.filePath, content);
    this.hooks.documentWritten.call({ before, after: snapshotOf(record), origin: { kind: 'host' } });
  }

  async #annotate(canonical: string, edit: (text: string) => string | null): Promise<string> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const file = await readTextFile(canonical);
      const next = edit(file.content);
      if (next === null || next === file.content) return file.content;
      const outcome = await replaceIfUnchanged(canonical, Buffer.from(next, 'utf8'), file.disk);
      if (outcome.kind === 'changed') continue;
      const record = this.#recordAt(canonical);
      if (record === undefined) return next;
      // The buffer was in line with the disk that was edited: it takes the same edit.
      if (record.disk?.sha256 === file.disk.sha256) {
        record.disk = outcome.disk;
        if (!record.edited && record.conflict === null) this.#setHostContent(record, next);
        else this.#setHostContent(record, edit(record.text.string) ?? record.text.string);
      }
      return next;
    }
    throw new DomainError('STALE', `${quotePath(canonical)} kept changing on disk while vmark annotated it`);
  }

  #recordAt(canonical: string): DocumentRecord | undefined {
    for (const record of this.#records.values()) if (record.filePath === canonical) return record;
    return undefined;
  }

  /** Saves and reports the outcome instead of throwing; a failed save leaves the buffer as it is. */
  async #saveReporting(record: DocumentRecord): Promise<SaveOutcome> {
    try {
      const saved = await this.#save(record);
      return { revision: saved.revision, saved: !saved.dirty };
    } catch (error) {
      return { revision: record.revision, saved: false, save_error: messageOf(error) };
    }
  }

  async #save(record: DocumentRecord): Promise<DocumentSnapshot> {
    if (record.filePath === null) {
      throw new DomainError('INVALID_PATH', 'The document is untitled; save it with workspace.save_as');
    }
    const target = await this.vault.resolve(record.filePath);
    const conflict = record.conflict;
    if (conflict !== null && !conflict.informed.has(record.revision)) throw conflictError(record);
    if (conflict === null && !record.edited) {
      // Nothing to save; a change on disk the watcher has not reported yet is taken in.
      if (await changedOnDisk(target, record.disk)) await this.#sync(record, { discardEdits: false });
      return snapshotOf(record);
    }
    const revision = record.revision;
    const content = await this.#proposeSave(record, record.text.string, null);
    const outcome = await this.#replaceFile(
      record,
      target,
      content,
      conflict === null ? record.disk : conflict.observed,
    );
    if (outcome.kind === 'changed') {
      this.#conflictFound(
        record,
        outcome.found === null ? 'deleted-on-disk' : 'changed-on-disk',
        outcome.found === null ? null : foundFile(outcome.found),
      );
      throw conflictError(record);
    }
    record.disk = outcome.disk;
    record.conflict = null;
    record.edited = record.revision !== revision;
    this.#setHostContent(record, content);
    const saved = snapshotOf(record);
    this.#saved(saved);
    return saved;
  }

  /**
   * Another program wrote to the file's previous version just as a save replaced it. An
   * append is replayed onto the saved file, as that program meant it; any other change
   * becomes a conflict that shows its text, since both versions cannot be on disk at once.
   */
  #lateWrite(documentId: string, target: string, late: LateWrite): void {
    void this.#queue
      .run(documentId, async () => {
        if (late.kind === 'append') {
          try {
            await withFileLock(saveLockPathFor(target), () => appendFile(target, late.suffix), {
              sources: this.#lockSources,
              timeoutMs: this.#lockTimeoutMs,
            });
          } catch (error) {
            await this.#replayFailed(documentId, target, late.suffix, error);
            return;
          }
          this.log.log(
            'documents',
            'notice',
            `kept ${late.suffix.length} bytes another program appended to ${quotePath(target)} ` +
              'while vmark was saving it',
          );
        }
        const record = this.#records.get(documentId);
        if (record === undefined || record.filePath !== target) return;
        if (late.kind === 'append') {
          await this.#sync(record, { discardEdits: false });
          return;
        }
        const file = await readTextFile(target).catch(() => null);
        this.#conflictFound(
          record,
          'changed-on-disk',
          file && { disk: file.disk, text: decodeUtf8(late.bytes) },
        );
      })
      .catch((error: unknown) => {
        // The bytes are on disk by now; only the tab's view of them is behind.
        this.log.log('documents', 'warning', `could not reload ${quotePath(target)}: ${messageOf(error)}`);
      });
  }

  /**
   * Another program's append could not be put back (the lock stayed taken, the disk refused it):
   * its bytes are not dropped but shown as a conflict whose other text is the file with them.
   */
  async #replayFailed(documentId: string, target: string, suffix: Buffer, error: unknown): Promise<void> {
    this.log.log(
      'documents',
      'error',
      `could not keep ${suffix.length} bytes another program appended to ${quotePath(target)} ` +
        `while vmark was saving it (${messageOf(error)}): they are shown as a conflict`,
    );
    const record = this.#records.get(documentId);
    if (record === undefined || record.filePath !== target) return;
    const file = await readTextFile(target).catch(() => null);
    this.#conflictFound(
      record,
      'changed-on-disk',
      file && { disk: file.disk, text: file.content + decodeUtf8(suffix) },
    );
  }

  async #sync(record: DocumentRecord, options: { readonly discardEdits: boolean }): Promise<void> {
    if (record.filePath === null || !this.#records.has(record.id)) return;
    if (!options.discardEdits && !(await changedOnDisk(record.filePath, record.disk))) return;
    const now = await stat(record.filePath, { bigint: true }).catch(() => null);
    if (now === null) {
      const renamedTo = record.disk && (await findByInode(path.dirname(record.filePath), record.disk.ino));
      if (renamedTo && !(await changedOnDisk(renamedTo, record.disk))) {
        record.filePath = renamedTo;
        record.kind = this.#detect(record.filePath, record.text);
        return;
      }
      this.#conflictFound(record, 'deleted-on-disk', null);
      return;
    }
    const file = await readTextFile(record.filePath).catch((error: unknown) => {
      if (isDomainError(error)) return null;
      throw error;
    });
    if (!options.discardEdits && (record.edited || record.conflict)) {
      this.#conflictFound(record, 'changed-on-disk', file && { disk: file.disk, text: file.content });
      return;
    }
    if (file === null) {
      // Not text any more (binary, too large, a pipe): nothing to load, and nothing to lose yet.
      this.#conflictFound(record, 'changed-on-disk', null);
      return;
    }
    this.#takeDisk(record, { disk: file.disk, bytes: Buffer.from(file.content, 'utf8') });
  }

  /** The buffer becomes the file's text, under a new revision when the text differs. */
  #takeDisk(record: DocumentRecord, found: FoundFile): void {
    const text = decodeUtf8(found.bytes);
    if (text === null) {
      this.#conflictFound(record, 'changed-on-disk', null);
      return;
    }
    const before = snapshotOf(record);
    record.disk = found.disk;
    record.conflict = null;
    record.edited = false;
    if (record.text.equals(text)) {
      if (before.dirty) this.hooks.documentStateChanged.call({ document: snapshotOf(record) });
      return;
    }
    this.#setContent(record, DocumentText.of(text));
    this.hooks.documentWritten.call({ before, after: snapshotOf(record), origin: { kind: 'disk' } });
  }

  #conflictFound(
    record: DocumentRecord,
    reason: DiskConflict['reason'],
    found: { readonly disk: DiskState; readonly text: string | null } | null,
  ): void {
    const previous = record.conflict;
    const same = previous?.reason === reason && previous.observed?.sha256 === found?.disk.sha256;
    if (same) return;
    this.log.log(
      'documents',
      'warning',
      `${quotePath(record.filePath)} ${reason === 'changed-on-disk' ? 'changed on disk while its tab had unsaved changes' : 'was deleted or moved away on disk'}: the tab keeps its text (a conflict; document.read shows it)`,
    );
    record.conflict = {
      reason,
      observed: found?.disk ?? null,
      observedText: found?.text ?? null,
      informed: new Set(),
    };
    this.hooks.documentStateChanged.call({ document: snapshotOf(record) });
  }

  #setContent(record: DocumentRecord, text: DocumentText): void {
    record.text = text;
    record.kind = this.#detect(record.filePath, text);
    record.revision = newRevision();
  }

  /** The kind, building the text only for a kind that reads it at this path. */
  #detect(filePath: string | null, text: DocumentText): string {
    return this.kinds.detect(filePath, () => text.string);
  }

  #add(
    filePath: string | null,
    text: DocumentText,
    disk: DiskState | null,
    kind = this.#detect(filePath, text),
  ): DocumentSnapshot {
    const record: DocumentRecord = {
      id: `doc-${this.#nextId++}`,
      filePath,
      text,
      revision: newRevision(),
      kind,
      edited: false,
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
    let firstEventAt = 0;
    const sync = () => {
      timer = undefined;
      void this.syncFromDisk(record.id).catch(() => undefined);
    };
    const watch = this.watcher.watchFolderOf(record.filePath, () => {
      // Editors write in several steps; look once they have settled — but a file that never
      // settles (a log being appended to) is still looked at every SETTLE_MAX_MS.
      const now = Date.now();
      if (timer === undefined) firstEventAt = now;
      clearTimeout(timer);
      timer = setTimeout(sync, Math.max(0, Math.min(SETTLE_MS, firstEventAt + SETTLE_MAX_MS - now)));
    });
    return { dispose: () => (clearTimeout(timer), watch.dispose()) };
  }

  #sweep(folder: string): void {
    if (this.#swept.has(folder)) return;
    this.#swept.add(folder);
    void sweepTempFiles(folder);
  }

  #record(documentId: string): DocumentRecord {
    const record = this.#records.get(documentId);
    if (!record) throw new DomainError('INVALID_TAB', 'No document for tab');
    return record;
  }
}

function checkRevision(record: DocumentRecord, expected: string | undefined): void {
  if (expected !== undefined && expected !== record.revision) throw staleError(record.revision);
}

const isDirty = (record: DocumentRecord): boolean => record.edited || record.conflict !== null;

/** The record as it is now; `content` is the text's string, built on first read (ADR 81). */
function snapshotOf(record: DocumentRecord): DocumentSnapshot {
  const { id, filePath, text, revision, kind, conflict } = record;
  return {
    id,
    filePath,
    get content() {
      return text.string;
    },
    head: (length) => text.head(length),
    slice: (from, to) => {
      const end = Math.max(0, Math.min(to, text.length));
      return text.slice(Math.max(0, Math.min(from, end)), end);
    },
    revision,
    kind,
    dirty: isDirty(record),
    ...(conflict && {
      conflict: {
        reason: conflict.reason,
        message: CONFLICT_MESSAGES[conflict.reason],
        diskContent: conflict.observedText,
        diskSha256: conflict.observed?.sha256 ?? null,
      },
    }),
  };
}

function alreadyExists(canonicalTarget: string): DomainError {
  return new DomainError(
    'INVALID_PATH',
    `${JSON.stringify(canonicalTarget)} already exists; vmark does not overwrite another file with save_as`,
  );
}

/**
 * The text file at `canonicalTarget` that a save_as would replace, or null when nothing is
 * there. Only a text file can be replaced: its text is what the AI edit history keeps.
 * @throws DomainError `INVALID_PATH` for anything else (a folder, a pipe, binary, too large).
 */
async function existingTextFile(
  canonicalTarget: string,
): Promise<{ content: string; disk: DiskState } | null> {
  if ((await lstat(canonicalTarget).catch(() => null)) === null) return null;
  try {
    return await readTextFile(canonicalTarget);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    throw new DomainError(
      'INVALID_PATH',
      `${error.message}; save_as replaces only a text file, whose text vmark can keep to put back`,
    );
  }
}

/** A save refused because the file changed on disk and nobody has been shown how. */
function conflictError(record: DocumentRecord): DomainError {
  const reason = record.conflict?.reason ?? 'changed-on-disk';
  const happened = reason === 'deleted-on-disk' ? 'was deleted or moved away' : 'changed on disk';
  return new DomainError(
    'STALE',
    `${quotePath(record.filePath)} ${happened} since vmark last read or wrote it; not overwritten. ` +
      'Read the document to see the conflict (conflict.disk_content is the text on disk), then write ' +
      'what should be kept with that revision as expected_revision.',
    { current_revision: record.revision, conflict: reason },
  );
}

function foundFile(found: FoundFile): { disk: DiskState; text: string | null } {
  return { disk: found.disk, text: decodeUtf8(found.bytes) };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Where `file` is after `moves` (a move of it, or of a folder holding it), or null when none moved it. */
export function movedPath(
  file: string,
  moves: readonly { readonly from: string; readonly to: string }[],
): string | null {
  for (const { from, to } of moves) {
    if (file === from) return to;
    if (file.startsWith(from + path.sep)) return to + file.slice(from.length);
  }
  return null;
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
