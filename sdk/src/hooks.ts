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

export interface DocumentWrittenEvent {
  readonly before: DocumentSnapshot;
  readonly after: DocumentSnapshot;
  readonly origin: ChangeOrigin;
}

export interface DocumentSavedEvent {
  readonly document: DocumentSnapshot;
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
  readonly documentWritten: SyncHook<[DocumentWrittenEvent]>;
  readonly documentSaved: SyncHook<[DocumentSavedEvent]>;
  readonly documentStateChanged: SyncHook<[DocumentStateChangedEvent]>;
  readonly workspaceOpened: SyncHook<[WorkspaceOpenedEvent]>;
  readonly toolCalled: SyncHook<[ToolCalledEvent]>;
}

type SyncHookName = {
  [K in keyof HostHooks]: HostHooks[K] extends SyncHook<infer _A> ? K : never;
}[keyof HostHooks];
type ArgOf<K extends keyof HostHooks> = HostHooks[K] extends
  SyncHook<[infer A]> | AsyncSeriesWaterfallHook<[infer A]>
  ? A
  : never;

/** How a plugin taps the host's hooks: every tap is named after the plugin and undoable. */
export interface PluginHooks {
  tap<K extends SyncHookName>(hook: K, fn: (event: ArgOf<K>) => void): Disposable;
  tapWaterfall(
    hook: 'beforeDocumentWrite',
    fn: (proposal: WriteProposal) => WriteProposal | Promise<WriteProposal>,
  ): Disposable;
}
