import type { SearchFileResult, SearchMatch } from '../../protocol/search-protocol.js';

/** A search the host hands its worker: the compiled pattern, the files, and what changed since the last. */
export interface WorkerSearch {
  readonly type: 'search';
  readonly id: number;
  readonly source: string;
  readonly flags: string;
  /** Null: the same files as the last search (the host sends the list only when it changed). */
  readonly files: readonly { readonly path: string; readonly label: string }[] | null;
  /** Files whose cached text is stale (a change heard), and folders whose every file is. */
  readonly changed: readonly string[];
  readonly changedFolders: readonly string[];
  readonly limits: WorkerLimits;
}

export interface WorkerLimits {
  /** Files larger than this are skipped (the editor would refuse to open them). */
  readonly maxFileBytes: number;
  /** Texts kept between searches, in total; past it, files are read again each search. */
  readonly maxCachedChars: number;
  readonly maxListedMatches: number;
  readonly maxListedPerFile: number;
  readonly previewChars: number;
}

/** Counted as the worker goes, so not read-only. */
export interface WorkerAnswer {
  readonly type: 'result';
  readonly id: number;
  readonly files: SearchFileResult[];
  moreMatches: number;
  moreFiles: number;
  readonly tooLarge: string[];
  notText: number;
  unreadable: number;
}

/**
 * The worker thread's program, run from its source text (`new Worker(source, { eval: true })`)
 * so that the same code runs from the TypeScript sources under test and from the bundle; it
 * therefore imports nothing and takes Node's own modules from `process.getBuiltinModule`. It keeps the texts
 * of the files between searches (the host tells it which changed: the workspace watcher's
 * events), and before each file it stores the file's number in the shared `progress` cell, so
 * that the host can see a regex stuck on one file and end the thread (ADR 68).
 */
export function searchWorkerMain(): void {
  // Not `require`: a bundler rewrites that name, and the text then runs where its rewrite is unknown.
  const threads = process.getBuiltinModule('node:worker_threads');
  const parentPort = threads.parentPort;
  const workerData: unknown = threads.workerData;
  const fs = process.getBuiltinModule('node:fs');
  const crypto = process.getBuiltinModule('node:crypto');
  const progress = new Int32Array(workerData as SharedArrayBuffer);
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  type Entry =
    | { kind: 'text'; text: string; sha256: string | null }
    | { kind: 'large' }
    | { kind: 'binary' }
    | { kind: 'unreadable' };
  const cache = new Map<string, Entry>();
  let files: readonly { readonly path: string; readonly label: string }[] = [];
  let cachedChars = 0;

  const forget = (file: string) => {
    const entry = cache.get(file);
    if (entry?.kind === 'text') cachedChars -= entry.text.length;
    cache.delete(file);
  };

  const load = (file: string, limits: WorkerLimits): Entry => {
    const cached = cache.get(file);
    if (cached !== undefined) return cached;
    let entry: Entry;
    try {
      const size = fs.statSync(file).size;
      if (size > limits.maxFileBytes) entry = { kind: 'large' };
      else {
        const bytes = fs.readFileSync(file);
        // A NUL in the first 8 KiB is a binary file, as git and ripgrep tell them.
        if (bytes.subarray(0, 8192).includes(0)) entry = { kind: 'binary' };
        else entry = { kind: 'text', text: utf8.decode(bytes), sha256: null };
      }
    } catch (error) {
      // Not UTF-8 is not text; anything else (gone, no permission) is unreadable.
      entry = error instanceof TypeError ? { kind: 'binary' } : { kind: 'unreadable' };
    }
    const chars = entry.kind === 'text' ? entry.text.length : 0;
    if (cachedChars + chars <= limits.maxCachedChars) {
      cache.set(file, entry);
      cachedChars += chars;
    }
    return entry;
  };

  const search = (request: WorkerSearch): WorkerAnswer => {
    for (const file of request.changed) forget(file);
    for (const folder of request.changedFolders) {
      for (const file of [...cache.keys()]) if (file.startsWith(folder)) forget(file);
    }
    const { limits } = request;
    if (request.files !== null) files = request.files;
    const pattern = new RegExp(request.source, request.flags);
    const answer: WorkerAnswer = {
      type: 'result',
      id: request.id,
      files: [],
      moreMatches: 0,
      moreFiles: 0,
      tooLarge: [],
      notText: 0,
      unreadable: 0,
    };
    let listed = 0;
    for (let n = 0; n < files.length; n++) {
      const { path, label } = files[n]!;
      Atomics.store(progress, 0, n + 1);
      const entry = load(path, limits);
      if (entry.kind !== 'text') {
        if (entry.kind === 'large') answer.tooLarge.push(label);
        else if (entry.kind === 'binary') answer.notText++;
        else answer.unreadable++;
        continue;
      }
      const text = entry.text;
      pattern.lastIndex = 0;
      const matches: SearchMatch[] = [];
      let count = 0;
      let line = 1;
      let counted = 0;
      for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
        const at = found.index;
        const length = found[0].length;
        // An empty match (`a*`, `^`) is no place to show: step past it.
        if (length === 0) {
          pattern.lastIndex = at + (text.codePointAt(at)! > 0xffff ? 2 : 1);
          if (pattern.lastIndex > text.length) break;
          continue;
        }
        count++;
        if (listed >= limits.maxListedMatches || matches.length >= limits.maxListedPerFile) continue;
        for (let i = text.indexOf('\n', counted); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
          line++;
          counted = i + 1;
        }
        const lineStart = text.lastIndexOf('\n', at - 1) + 1;
        let lineEnd = text.indexOf('\n', at);
        if (lineEnd === -1) lineEnd = text.length;
        if (text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
        const from = Math.max(lineStart, Math.min(at - 40, lineEnd - limits.previewChars));
        const to = Math.min(lineEnd, from + limits.previewChars);
        const start = at - from;
        matches.push({
          line,
          column: at - lineStart + 1,
          length,
          preview: text.slice(from, to),
          start,
          end: Math.min(to - from, start + length),
        });
        listed++;
      }
      if (count === 0) continue;
      if (matches.length === 0) {
        answer.moreFiles++;
        answer.moreMatches += count;
        continue;
      }
      entry.sha256 ??= crypto.createHash('sha256').update(text).digest('hex');
      answer.files.push({ path, label, matches, more: count - matches.length, sha256: entry.sha256 });
    }
    Atomics.store(progress, 0, 0);
    return answer;
  };

  parentPort!.on('message', (request: WorkerSearch) => parentPort!.postMessage(search(request)));
}
