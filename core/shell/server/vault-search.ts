import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Disposable, Vault } from '@vmark/sdk';
import { SerialQueue } from '@vmark/sdk';
import { ArgumentError } from '@vmark/sdk';
import type { HostDocumentStore } from '../../documents/document-store.js';
import { MAX_DOCUMENT_BYTES } from '../../documents/read-text-file.js';
import type { CheckpointStore } from '../../history/checkpoint-store.js';
import { PatternError, replaceMatches, searchPattern } from '../../matching/search-pattern.js';
import type { RequestParams, RequestResult } from '../../protocol/protocol.js';
import type { ReplaceFileOutcome, SearchOptions, SearchResult } from '../../protocol/search-protocol.js';
import { fingerprint } from '../../vault/file-fingerprint.js';
import { isWithinRoot } from '../../vault/path-scope.js';
import type { HostWorkbench } from '../../workbench/workbench.js';
import type { QuickOpenService } from './quick-open-service.js';
import {
  type WorkerAnswer,
  type WorkerLimits,
  type WorkerSearch,
  searchWorkerMain,
} from './search-worker.js';

export const SEARCH_LIMITS: WorkerLimits = {
  // What the editor would open: a larger file (a 2 GB export) is skipped with a note.
  maxFileBytes: MAX_DOCUMENT_BYTES,
  // ~512 MB of UTF-16 at most; a 20,000-note vault of 2 KB notes keeps ~40 MB.
  maxCachedChars: 256 * 1024 * 1024,
  maxListedMatches: 2_000,
  maxListedPerFile: 100,
  previewChars: 200,
};

/** A regex still on one file after this long is taken for one that would not end, and stopped. */
export const FILE_BUDGET_MS = 2_000;
/** How often the watchdog looks at the worker's progress. */
const WATCHDOG_MS = 100;

/** The worker's program as the text it runs from (see `searchWorkerMain`). */
const WORKER_SOURCE = `(${searchWorkerMain.toString()})();`;

/**
 * One worker thread and its shared progress cell. A search that does not move past a file
 * within the budget ends the thread: a JavaScript regex cannot be interrupted any other way.
 */
class SearchThread {
  readonly #progress = new SharedArrayBuffer(4);
  readonly #cell = new Int32Array(this.#progress);
  readonly #worker: Worker;
  #waiting: ((answer: WorkerAnswer | Error) => void) | null = null;

  constructor(private readonly budgetMs: number) {
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData: this.#progress });
    this.#worker.unref();
    this.#worker.on('message', (answer: WorkerAnswer) => this.#settle(answer));
    this.#worker.on('error', (error) => this.#settle(error));
    this.#worker.on('exit', (code) => this.#settle(new Error(`the search thread stopped (${code})`)));
  }

  /** The worker's answer, or the number of the file (from 1) it was stuck on when it was ended. */
  run(request: WorkerSearch): Promise<WorkerAnswer | { stuckAt: number }> {
    return new Promise((resolve, reject) => {
      let last = -1;
      let since = Date.now();
      const watchdog = setInterval(() => {
        const at = Atomics.load(this.#cell, 0);
        if (at !== last) {
          last = at;
          since = Date.now();
        } else if (at !== 0 && Date.now() - since >= this.budgetMs) {
          clearInterval(watchdog);
          this.#waiting = null;
          void this.#worker.terminate();
          resolve({ stuckAt: at });
        }
      }, WATCHDOG_MS);
      this.#waiting = (answer) => {
        clearInterval(watchdog);
        if (answer instanceof Error) reject(answer);
        else resolve(answer);
      };
      this.#worker.postMessage(request);
    });
  }

  #settle(answer: WorkerAnswer | Error): void {
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.(answer);
  }

  dispose(): void {
    this.#waiting = null;
    void this.#worker.terminate();
  }
}

/**
 * Vault search's host side (ADR 68): the files are quick open's (`WorkspaceFileIndex`, kept
 * current by the host's folder watches), searched in a worker thread that keeps their texts
 * between searches and forgets a file's text when a watch hears it change. Replace-in-files
 * writes through the document store's `annotate` — the guarded, atomic write that takes an
 * open tab along — and records one checkpoint a file.
 */
export class VaultSearch implements Disposable {
  #thread: SearchThread | null = null;
  readonly #queue = new SerialQueue();
  readonly #changed = new Set<string>();
  readonly #changedFolders = new Set<string>();
  readonly #heard = new Map<string, Disposable>();
  /** The file list the worker holds, and the roots and index generations it was made from. */
  #sent: { readonly key: string; readonly files: { path: string; label: string }[] } | null = null;
  #nextId = 1;

  constructor(
    private readonly quickOpen: Pick<QuickOpenService, 'rootsOf' | 'indexOf'>,
    private readonly workbench: Pick<HostWorkbench, 'tabOfDocument'>,
    private readonly vault: Pick<Vault, 'resolve'>,
    private readonly documents: Pick<HostDocumentStore, 'findByPath' | 'annotate'>,
    private readonly checkpoints: Pick<CheckpointStore, 'append'>,
    private readonly budgetMs = FILE_BUDGET_MS,
  ) {}

  /**
   * The matches of `query` in the window's workspace, files in path order.
   * @throws ArgumentError for a query that is not a valid pattern.
   */
  async search(windowLabel: string, query: string, options: SearchOptions): Promise<SearchResult> {
    const pattern = patternOf(query, options);
    return this.#queue.run(() => this.#search(windowLabel, pattern));
  }

  async #search(windowLabel: string, pattern: RegExp): Promise<SearchResult> {
    const roots = this.quickOpen.rootsOf(windowLabel);
    const several = roots.length > 1;
    let building = false;
    const generations: string[] = [];
    for (const root of roots) {
      const index = this.quickOpen.indexOf(root);
      if (!this.#heard.has(root))
        this.#heard.set(
          root,
          index.onChange((folder, name) => this.#heardChange(folder, name)),
        );
      building ||= index.status().building;
      generations.push(`${root}\0${index.generation}`);
    }
    // The list goes to the worker only when it may have changed: 20,000 paths cost more than a search.
    const key = generations.join('\0');
    const resend = this.#sent?.key !== key || this.#thread === null;
    const files: { path: string; label: string }[] = resend ? [] : this.#sent!.files;
    if (resend)
      for (const root of roots) {
        const index = this.quickOpen.indexOf(root);
        const prefix = several ? `${path.basename(root) || root}/` : '';
        for (const relative of index.index.paths()) {
          files.push({ path: path.join(root, ...relative.split('/')), label: prefix + relative });
        }
      }
    const request: WorkerSearch = {
      type: 'search',
      id: this.#nextId++,
      source: pattern.source,
      flags: pattern.flags,
      files: resend ? files : null,
      changed: [...this.#changed],
      changedFolders: [...this.#changedFolders],
      limits: SEARCH_LIMITS,
    };
    this.#changed.clear();
    this.#changedFolders.clear();
    this.#sent = { key, files };
    this.#thread ??= new SearchThread(this.budgetMs);
    let answer: Awaited<ReturnType<SearchThread['run']>>;
    try {
      answer = await this.#thread.run(request);
    } catch (error) {
      // The thread died (out of memory): the next search starts a new one, with nothing cached.
      this.#thread = null;
      throw error;
    }
    if ('stuckAt' in answer) {
      // A new thread starts with nothing cached: what was heard meanwhile no longer matters.
      this.#thread = null;
      const file = files[answer.stuckAt - 1]?.label ?? 'a file';
      return {
        files: [],
        moreMatches: 0,
        moreFiles: 0,
        searchedFiles: answer.stuckAt - 1,
        notes: [
          `The regular expression ran for more than ${this.budgetMs / 1000} s on ${file} and was stopped. ` +
            'Nested repeats such as (a+)+ can take forever on some text: make the pattern more specific.',
        ],
        building,
      };
    }
    answer.files.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    return {
      files: answer.files,
      moreMatches: answer.moreMatches,
      moreFiles: answer.moreFiles,
      searchedFiles: files.length - answer.tooLarge.length - answer.notText - answer.unreadable,
      notes: notesOf(answer),
      building,
    };
  }

  #heardChange(folder: string, name: string | null): void {
    if (name === null) this.#changedFolders.add(folder + path.sep);
    else this.#changed.add(path.join(folder, name));
  }

  /**
   * Replaces in each file, one after another, through the guarded write; a file is left as it
   * is (with a note) when its text is not the one searched, its open tab has unsaved changes,
   * or it is not in the window's workspace.
   * @throws ArgumentError for a query that is not a valid pattern.
   */
  async replace(
    windowLabel: string,
    params: RequestParams<'search.replace'>,
  ): Promise<RequestResult<'search.replace'>> {
    const { query, options, replacement } = params;
    const pattern = patternOf(query, options);
    const roots = this.quickOpen.rootsOf(windowLabel);
    const outcomes: ReplaceFileOutcome[] = [];
    for (const file of params.files) {
      outcomes.push(
        await this.#replaceIn(file, roots, pattern, replacement, options.regex, query).catch(
          (error: unknown): ReplaceFileOutcome => ({
            path: file.path,
            replaced: 0,
            note: error instanceof Error ? error.message : String(error),
          }),
        ),
      );
    }
    return { files: outcomes };
  }

  async #replaceIn(
    file: RequestParams<'search.replace'>['files'][number],
    roots: readonly string[],
    pattern: RegExp,
    replacement: string,
    regex: boolean,
    query: string,
  ): Promise<ReplaceFileOutcome> {
    const left = (note: string): ReplaceFileOutcome => ({ path: file.path, replaced: 0, note });
    const canonical = await this.vault.resolve(file.path);
    if (!roots.some((root) => isWithinRoot(canonical, root))) return left('It is not in this workspace.');
    const open = this.documents.findByPath(canonical);
    if (open?.dirty) return left('Its tab has unsaved changes: save them, search again, then replace.');
    const skip = new Set(file.skip);
    let done: { before: string; after: string; replaced: number } | null = null;
    await this.documents.annotate(canonical, (text) => {
      // Only the text the person previewed is changed; a later call (an edited tab) is not.
      if (done !== null || fingerprint(text) !== file.sha256) return null;
      const result = replaceMatches(text, pattern, replacement, regex, skip);
      done = { before: text, after: result.text, replaced: result.replaced };
      return result.text;
    });
    const changed = done as { before: string; after: string; replaced: number } | null;
    if (changed === null) return left('It changed since the search: search again.');
    if (changed.after === changed.before) return { path: file.path, replaced: 0 };
    const after = this.documents.findByPath(canonical);
    const entry = await this.checkpoints.append({
      tabId: open ? (this.workbench.tabOfDocument(open.id)?.id ?? null) : null,
      filePath: canonical,
      tool: 'search.replace',
      description: `Replaced ${changed.replaced} ${changed.replaced === 1 ? 'match' : 'matches'} of ${JSON.stringify(query)} in ${path.basename(canonical)}`,
      revisionBefore: open?.revision ?? `sha256:${file.sha256}`,
      revisionAfter: after?.revision ?? `sha256:${fingerprint(changed.after)}`,
      contentBefore: changed.before,
    });
    return { path: file.path, replaced: changed.replaced, checkpoint: entry.id };
  }

  handlers(windowLabel: string): {
    'search.query': (params: RequestParams<'search.query'>) => Promise<RequestResult<'search.query'>>;
    'search.replace': (params: RequestParams<'search.replace'>) => Promise<RequestResult<'search.replace'>>;
  } {
    return {
      'search.query': ({ query, options }) => this.search(windowLabel, query, options),
      'search.replace': (params) => this.replace(windowLabel, params),
    };
  }

  dispose(): void {
    this.#thread?.dispose();
    this.#thread = null;
    for (const heard of this.#heard.values()) heard.dispose();
    this.#heard.clear();
  }
}

/** The query's pattern; one that makes none is the page's bad argument. */
function patternOf(query: string, options: SearchOptions): RegExp {
  try {
    return searchPattern(query, options);
  } catch (error) {
    if (error instanceof PatternError) throw new ArgumentError(error.message);
    throw error;
  }
}

function notesOf(answer: WorkerAnswer): string[] {
  const notes: string[] = [];
  const mb = Math.round(SEARCH_LIMITS.maxFileBytes / (1024 * 1024));
  if (answer.tooLarge.length > 0) {
    const named = answer.tooLarge.slice(0, 3).join(', ');
    const rest = answer.tooLarge.length > 3 ? ` and ${answer.tooLarge.length - 3} more` : '';
    notes.push(`Skipped, larger than ${mb} MB: ${named}${rest}.`);
  }
  if (answer.notText > 0) notes.push(`${answer.notText} files that are not text were not searched.`);
  if (answer.unreadable > 0) notes.push(`${answer.unreadable} files could not be read.`);
  return notes;
}
