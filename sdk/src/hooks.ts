import type { AsyncSeriesWaterfallHook, SyncHook } from 'tapable';
import type { Disposable } from './lifecycle.js';
import type { ChangeOrigin, DocumentSnapshot } from './services/documents.js';
import type { TabRef } from './services/workbench.js';
import type { ToolCaller } from './tool.js';

export interface DocumentOpenedEvent {
  readonly document: DocumentSnapshot;
  readonly tab: TabRef;
}

export interface DocumentReadEvent {
  readonly document: DocumentSnapshot;
  readonly origin: ChangeOrigin;
}

/** A change about to be applied; a tap may rewrite `content` or set `veto` to refuse it. */
export interface WriteProposal {
  readonly document: DocumentSnapshot;
  readonly content: string;
  readonly origin: ChangeOrigin;
  readonly veto?: string;
}

/**
 * The bytes about to be saved to a document's file; a tap may add host-managed metadata to
 * `content` (an identity line). What a tap adds is saved and enters the buffer without a new
 * revision and without making it dirty: it is the host's, not an edit of anyone's.
 */
export interface SaveProposal {
  /** The document before this save (for a tool's write, before the write). */
  readonly document: DocumentSnapshot;
  readonly content: string;
  /** The change being saved, when a tool's write saves at once; null for a save of the buffer as it is. */
  readonly origin: ChangeOrigin | null;
}

export interface DocumentWrittenEvent {
  readonly before: DocumentSnapshot;
  readonly after: DocumentSnapshot;
  readonly origin: ChangeOrigin;
}

export interface DocumentSavedEvent {
  readonly document: DocumentSnapshot;
  /**
   * Holds back the answer of the call that saved (a tool's write, replace or save-as) until
   * `durable` settles: for what a tap does to other files because of this save and that the
   * caller must find done once told "saved" (ADR 66). Its failure is the holder's to report.
   * A person's save in the editor answers nobody and waits for nothing.
   */
  readonly hold: (durable: Promise<unknown>) => void;
}

/** A document was saved over another file (`saveAs` with the caller's confirmation). */
export interface FileReplacedEvent {
  /** The document, saved: its file is now `filePath`. */
  readonly document: DocumentSnapshot;
  /** The canonical path of the replaced file. */
  readonly filePath: string;
  /** The text the file held, which nothing else keeps now. */
  readonly replacedContent: string;
  readonly origin: ChangeOrigin;
}

/** A file the person moved or renamed (the file list): root-relative, `/`-separated paths. */
export interface FileMove {
  readonly from: string;
  readonly to: string;
}

/**
 * What a tap of `filesMoved` asks the host to do to one file because of a move (host API 1.10.0):
 * `rewrite` gets the file's text as the host read it, under the file's queue, and returns the new
 * text and how many places it changed, or null to leave it. The host writes it through the guarded
 * save (never over an outside change) and records a checkpoint, so History restores it.
 */
export interface FileRewrite {
  /** Root-relative, `/`-separated: where the file is after the move. */
  readonly path: string;
  readonly rewrite: (text: string) => { readonly text: string; readonly count: number } | null;
}

/**
 * Files were moved or renamed in a workspace by the person (the file list). A tap adds the
 * rewrites other files need (the document plugin: the links to a moved note); the host applies them.
 */
export interface FilesMovedProposal {
  /** The canonical workspace root the paths are relative to. */
  readonly root: string;
  /** Every file moved: a folder's move lists each file inside it. */
  readonly moves: readonly FileMove[];
  /** Every file of the workspace before the move (root-relative, `/`-separated). */
  readonly files: readonly string[];
  readonly rewrites: readonly FileRewrite[];
}

/** A document's dirty or conflict state changed while its text did not (a conflict found on disk). */
export interface DocumentStateChangedEvent {
  readonly document: DocumentSnapshot;
}

export interface WorkspaceOpenedEvent {
  readonly root: string;
  readonly workspaceInstanceId: string;
  readonly windowLabel: string;
}

export interface ToolCalledEvent {
  readonly tool: string;
  readonly action: string;
  readonly caller: ToolCaller;
  readonly outcome: 'ok' | 'domain-error' | 'argument-error' | 'internal-error';
  readonly durationMs: number;
}

/** The host's event vocabulary. The host calls these; plugins tap them through `PluginHooks`. */
export interface HostHooks {
  readonly documentOpened: SyncHook<[DocumentOpenedEvent]>;
  readonly documentRead: SyncHook<[DocumentReadEvent]>;
  readonly beforeDocumentWrite: AsyncSeriesWaterfallHook<[WriteProposal]>;
  readonly beforeDocumentSave: AsyncSeriesWaterfallHook<[SaveProposal]>;
  readonly documentWritten: SyncHook<[DocumentWrittenEvent]>;
  readonly documentSaved: SyncHook<[DocumentSavedEvent]>;
  readonly fileReplaced: SyncHook<[FileReplacedEvent]>;
  readonly documentStateChanged: SyncHook<[DocumentStateChangedEvent]>;
  readonly workspaceOpened: SyncHook<[WorkspaceOpenedEvent]>;
  /** Files moved or renamed from the file list: taps add the rewrites other files need (host API 1.10.0). */
  readonly filesMoved: AsyncSeriesWaterfallHook<[FilesMovedProposal]>;
  readonly toolCalled: SyncHook<[ToolCalledEvent]>;
}

type SyncHookName = {
  [K in keyof HostHooks]: HostHooks[K] extends SyncHook<infer _A> ? K : never;
}[keyof HostHooks];
type WaterfallHookName = {
  [K in keyof HostHooks]: HostHooks[K] extends AsyncSeriesWaterfallHook<infer _A> ? K : never;
}[keyof HostHooks];
type ArgOf<K extends keyof HostHooks> = HostHooks[K] extends
  SyncHook<[infer A]> | AsyncSeriesWaterfallHook<[infer A]>
  ? A
  : never;

/** How a plugin taps the host's hooks: every tap is named after the plugin and undoable. */
export interface PluginHooks {
  tap<K extends SyncHookName>(hook: K, fn: (event: ArgOf<K>) => void): Disposable;
  tapWaterfall<K extends WaterfallHookName>(
    hook: K,
    fn: (proposal: ArgOf<K>) => ArgOf<K> | Promise<ArgOf<K>>,
  ): Disposable;
}
