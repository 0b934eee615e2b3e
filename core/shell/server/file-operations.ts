import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileRewrite, FilesMovedProposal, HostHooks, Vault } from '@vmark/sdk';
import { DomainError, errorCode } from '@vmark/sdk';
import type { HostDocumentStore } from '../../documents/document-store.js';
import type { CheckpointStore } from '../../history/checkpoint-store.js';
import type { LinkUpdate, MovedEntry } from '../../protocol/files-protocol.js';
import type { RequestParams, RequestResult } from '../../protocol/protocol.js';
import { checkEntryName } from '../../vault/entry-name.js';
import { fingerprint } from '../../vault/file-fingerprint.js';
import { alreadyThere, copyNoReplace, moveNoReplace } from '../../vault/move-entry.js';
import { isWithinRoot, quotePath } from '../../vault/path-scope.js';
import { moveToTrash, numbered, restoreFromTrash, type Trashed } from '../../vault/trash.js';
import type { HostWorkbench } from '../../workbench/workbench.js';
import { isHiddenEntry } from '../../workspace-files/hidden-entry.js';
import type { QuickOpenService } from './quick-open-service.js';

/** The most files a move's link update looks at: past it, links are left (and the person told). */
export const MAX_LINKED_FILES = 200_000;
/** Deletes an Undo can take back, kept in memory for the host's life. */
const MAX_TRASHED = 1_000;

type FileRequest =
  'files.create' | 'files.rename' | 'files.move' | 'files.delete' | 'files.restore' | 'files.duplicate';

/** An entry the person acts on: canonical (its folder's realpath + its own name) and its workspace root. */
interface Entry {
  readonly path: string;
  readonly root: string;
  readonly folder: boolean;
}

/**
 * The file list's operations (issue 19 item 4, ADR 70): create, rename, move, delete to a trash,
 * restore, duplicate. Every path goes through the vault's guard (`resolve`: the scope, the
 * protected folders, no way out through a link) and must lie in one of the window's workspace
 * roots; a new name is checked as a name and kept exactly as typed; nothing is ever replaced
 * (`moveNoReplace`, `copyNoReplace`, `O_EXCL`). Open tabs follow a move (the workbench holds
 * their documents' queues meanwhile). After a move, the `filesMoved` hook's taps (the document
 * plugin: links) say what other files need; each is rewritten through the document store's
 * `annotate` — read and written under the file's queue, only over the bytes read, so an outside
 * edit is never lost — and gets a checkpoint, so History restores it.
 */
export class FileOperations {
  readonly #trashed = new Map<string, Trashed>();

  constructor(
    private readonly quickOpen: Pick<QuickOpenService, 'rootsOf'>,
    private readonly workbench: Pick<HostWorkbench, 'followMoves' | 'closeDeleted' | 'tabOfDocument'>,
    private readonly vault: Pick<Vault, 'resolve'>,
    private readonly documents: Pick<HostDocumentStore, 'findByPath' | 'annotate'>,
    private readonly checkpoints: Pick<CheckpointStore, 'append'>,
    private readonly hooks: Pick<HostHooks, 'filesMoved'>,
    /** The system trash (`trash.ts`'s `systemTrashFolder`), or null for the workspace's `.trash/`. */
    private readonly systemTrash: string | null,
  ) {}

  async create(windowLabel: string, params: RequestParams<'files.create'>): Promise<{ path: string }> {
    checkEntryName(params.name);
    const folder = await this.#folder(windowLabel, params.folder);
    for (let n = 1; ; n++) {
      const target = await this.#target(folder.path, numbered(params.name, n));
      try {
        if (params.type === 'folder') await mkdir(target);
        else await (await open(target, 'wx')).close();
        return { path: target };
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
        if (params.unique !== true || n >= 1000) throw alreadyThere(target);
      }
    }
  }

  async rename(
    windowLabel: string,
    { path: entryPath, name }: RequestParams<'files.rename'>,
  ): Promise<MovedEntry> {
    checkEntryName(name);
    const entry = await this.#entry(windowLabel, entryPath);
    const target = await this.#target(path.dirname(entry.path), name);
    return this.#move(entry, target);
  }

  async move(windowLabel: string, params: RequestParams<'files.move'>): Promise<MovedEntry> {
    const entry = await this.#entry(windowLabel, params.path);
    const folder = await this.#folder(windowLabel, params.folder);
    if (isWithinRoot(folder.path, entry.path))
      throw new DomainError('INVALID_PATH', `${quotePath(entry.path)} cannot be moved into itself`);
    if (path.dirname(entry.path) === folder.path) return { path: entry.path, linkUpdate: NO_LINKS };
    const target = await this.#target(folder.path, path.basename(entry.path));
    return this.#move(entry, target);
  }

  async delete(
    windowLabel: string,
    params: RequestParams<'files.delete'>,
  ): Promise<RequestResult<'files.delete'>> {
    const entry = await this.#entry(windowLabel, params.path);
    const trashed = await moveToTrash(entry.path, entry.root, this.systemTrash);
    if (this.#trashed.size >= MAX_TRASHED) this.#trashed.delete(this.#trashed.keys().next().value!);
    const trashId = `trash-${randomBytes(6).toString('hex')}`;
    this.#trashed.set(trashId, trashed);
    const keptTabs = this.workbench.closeDeleted(entry.path);
    return { trashId, where: trashed.where, keptTabs };
  }

  async restore(windowLabel: string, { trashId }: RequestParams<'files.restore'>): Promise<{ path: string }> {
    const trashed = this.#trashed.get(trashId);
    if (trashed === undefined)
      throw new DomainError('INVALID_PATH', 'That delete can no longer be undone here: look in the trash.');
    // Where it goes back to must still be this window's, and guarded as any new name is.
    await this.#folder(windowLabel, path.dirname(trashed.original));
    await this.#target(path.dirname(trashed.original), path.basename(trashed.original));
    await restoreFromTrash(trashed);
    this.#trashed.delete(trashId);
    return { path: trashed.original };
  }

  async duplicate(windowLabel: string, params: RequestParams<'files.duplicate'>): Promise<{ path: string }> {
    const entry = await this.#entry(windowLabel, params.path);
    const name = path.basename(entry.path);
    for (let n = 1; n < 1000; n++) {
      // A folder's name has no extension to keep after the number.
      const copy = entry.folder ? `${name} copy${n === 1 ? '' : ` ${n}`}` : numbered(name, n, 'copy');
      const target = await this.#target(path.dirname(entry.path), copy);
      try {
        await copyNoReplace(entry.path, target);
        return { path: target };
      } catch (error) {
        if ((await lstat(target).catch(() => null)) === null) throw error;
      }
    }
    throw alreadyThere(path.join(path.dirname(entry.path), `${name} copy`));
  }

  handlers(windowLabel: string): {
    [M in FileRequest]: (params: RequestParams<M>) => Promise<RequestResult<M>>;
  } {
    return {
      'files.create': (params) => this.create(windowLabel, params),
      'files.rename': (params) => this.rename(windowLabel, params),
      'files.move': (params) => this.move(windowLabel, params),
      'files.delete': (params) => this.delete(windowLabel, params),
      'files.restore': (params) => this.restore(windowLabel, params),
      'files.duplicate': (params) => this.duplicate(windowLabel, params),
    };
  }

  /** Moves the entry (its open tabs follow), then lets the hook's taps rewrite what linked to it. */
  async #move(entry: Entry, target: string): Promise<MovedEntry> {
    const targetRoot = this.#rootOf(target, [entry.root]);
    const sameRoot = targetRoot === entry.root;
    const before = sameRoot ? await listFiles(entry.root) : null;
    await this.workbench.followMoves([{ from: entry.path, to: target }], () =>
      moveNoReplace(entry.path, target),
    );
    if (before === null) return { path: target, linkUpdate: NO_LINKS };
    const from = relative(entry.root, entry.path);
    const to = relative(entry.root, target);
    const moves = entry.folder
      ? before.files
          .filter((file) => file.startsWith(`${from}/`))
          .map((file) => ({ from: file, to: to + file.slice(from.length) }))
      : [{ from, to }];
    if (moves.length === 0) return { path: target, linkUpdate: NO_LINKS };
    let proposal: FilesMovedProposal;
    try {
      proposal = await this.hooks.filesMoved.promise({
        root: entry.root,
        moves,
        files: before.files,
        rewrites: [],
      });
    } catch (error) {
      // The move is done: a tap that failed costs the link update, said, not the move.
      const reason = error instanceof Error ? error.message : String(error);
      return {
        path: target,
        linkUpdate: { ...NO_LINKS, left: [`The links could not be updated: ${reason}`] },
      };
    }
    const linkUpdate = await this.#rewrite(entry.root, proposal.rewrites, path.basename(target));
    if (before.truncated)
      return {
        path: target,
        linkUpdate: {
          ...linkUpdate,
          left: [...linkUpdate.left, `Only the first ${MAX_LINKED_FILES} files were looked at for links.`],
        },
      };
    return { path: target, linkUpdate };
  }

  async #rewrite(root: string, rewrites: readonly FileRewrite[], movedName: string): Promise<LinkUpdate> {
    let links = 0;
    let notes = 0;
    const left: string[] = [];
    for (const rewrite of rewrites) {
      const file = path.join(root, ...rewrite.path.split('/'));
      try {
        const count = await this.#rewriteOne(file, rewrite, movedName);
        if (count === 'dirty')
          left.push(`${rewrite.path}: its tab has unsaved changes; save it and fix its links.`);
        else if (count > 0) {
          links += count;
          notes++;
        }
      } catch (error) {
        left.push(`${rewrite.path}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return { links, notes, left };
  }

  /** One file's rewrite through the guarded write, and its checkpoint; how many places changed. */
  async #rewriteOne(file: string, rewrite: FileRewrite, movedName: string): Promise<number | 'dirty'> {
    const open = this.documents.findByPath(await this.vault.resolve(file));
    const calls: { before: string; after: string; count: number }[] = [];
    const edit = (text: string): string | null => {
      const result = rewrite.rewrite(text);
      if (result === null || result.text === text) return null;
      calls.push({ before: text, after: result.text, count: result.count });
      return result.text;
    };
    if (open?.dirty) return edit(open.content) === null ? 0 : 'dirty';
    calls.length = 0;
    const written = await this.documents.annotate(file, edit);
    // The call whose text was written: an outside change between read and write makes it read again.
    const done = calls.findLast((call) => call.after === written);
    if (done === undefined) return 0;
    const after = this.documents.findByPath(file);
    await this.checkpoints.append({
      tabId: open ? (this.workbench.tabOfDocument(open.id)?.id ?? null) : null,
      filePath: file,
      tool: 'files.move',
      description: `Updated ${done.count} ${done.count === 1 ? 'link' : 'links'} to ${movedName} in ${path.basename(file)}`,
      revisionBefore: open?.revision ?? `sha256:${fingerprint(done.before)}`,
      revisionAfter: after?.revision ?? `sha256:${fingerprint(done.after)}`,
      contentBefore: done.before,
    });
    return done.count;
  }

  /**
   * The entry at `input`: its folder resolved through the guard and its own name kept, so a link
   * is acted on as the entry it is (not its target), but only one whose target stays in scope.
   */
  async #entry(windowLabel: string, input: string): Promise<Entry> {
    const real = await this.vault.resolve(input);
    if (this.quickOpen.rootsOf(windowLabel).includes(real))
      throw new DomainError('INVALID_PATH', `${quotePath(input)} is the workspace folder itself`);
    const folder = await this.vault.resolve(path.dirname(input));
    const entryPath = path.join(folder, path.basename(input));
    const root = this.#rootOf(entryPath, this.quickOpen.rootsOf(windowLabel));
    if (root === null)
      throw new DomainError('INVALID_PATH', `${quotePath(input)} is not in this window's workspace`);
    if (entryPath === root)
      throw new DomainError('INVALID_PATH', `${quotePath(input)} is the workspace folder itself`);
    const info = await lstat(entryPath).catch(() => null);
    if (info === null) throw new DomainError('INVALID_PATH', `${quotePath(input)} does not exist`);
    return { path: entryPath, root, folder: info.isDirectory() };
  }

  /** A folder of the window's workspace, canonical. */
  async #folder(windowLabel: string, input: string): Promise<Entry> {
    const folder = await this.vault.resolve(input);
    const root = this.#rootOf(folder, this.quickOpen.rootsOf(windowLabel));
    if (root === null)
      throw new DomainError('INVALID_PATH', `${quotePath(input)} is not in this window's workspace`);
    if (!(await stat(folder).catch(() => null))?.isDirectory())
      throw new DomainError('INVALID_PATH', `${quotePath(input)} is not a folder`);
    return { path: folder, root, folder: true };
  }

  /** `name` in the canonical `folder`, through the guard (a protected folder, a link out: refused). */
  async #target(folder: string, name: string): Promise<string> {
    checkEntryName(name);
    const target = path.join(folder, name);
    // The guard resolves an existing name through its link: a taken name is refused where it is used.
    if ((await lstat(target).catch(() => null)) === null) await this.vault.resolve(target);
    else await this.vault.resolve(folder);
    return target;
  }

  #rootOf(entry: string, roots: readonly string[]): string | null {
    return [...roots].sort((a, b) => b.length - a.length).find((root) => isWithinRoot(entry, root)) ?? null;
  }
}

const NO_LINKS: LinkUpdate = { links: 0, notes: 0, left: [] };

function relative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

/**
 * The workspace's files as the file list shows them (hidden names and `.vmark` left out, links
 * not followed), root-relative with `/`: what a link may name, taken just before a move.
 */
async function listFiles(root: string): Promise<{ files: string[]; truncated: boolean }> {
  const files: string[] = [];
  const folders = [''];
  while (folders.length > 0 && files.length < MAX_LINKED_FILES) {
    const folder = folders.pop()!;
    const entries = await readdir(path.join(root, folder), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (isHiddenEntry(entry.name)) continue;
      const rel = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) folders.push(rel);
      else if (entry.isFile()) files.push(rel);
    }
  }
  return { files: files.sort(), truncated: folders.length > 0 };
}
