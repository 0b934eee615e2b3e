import type {
  DocumentOpenedEvent,
  DocumentReadEvent,
  DocumentSavedEvent,
  DocumentStateChangedEvent,
  DocumentWrittenEvent,
  FileReplacedEvent,
  FilesMovedProposal,
  HostHooks,
  ToolCalledEvent,
  WorkspaceOpenedEvent,
  SaveProposal,
  WriteProposal,
} from '@vmark/sdk';
import { AsyncSeriesWaterfallHook, SyncHook } from 'tapable';

/** One set of hooks per host; only the host calls them. */
export function createHostHooks(): HostHooks {
  return Object.freeze({
    documentOpened: new SyncHook<[DocumentOpenedEvent]>(['event'], 'documentOpened'),
    documentRead: new SyncHook<[DocumentReadEvent]>(['event'], 'documentRead'),
    beforeDocumentWrite: new AsyncSeriesWaterfallHook<[WriteProposal]>(['proposal'], 'beforeDocumentWrite'),
    beforeDocumentSave: new AsyncSeriesWaterfallHook<[SaveProposal]>(['proposal'], 'beforeDocumentSave'),
    documentWritten: new SyncHook<[DocumentWrittenEvent]>(['event'], 'documentWritten'),
    documentSaved: new SyncHook<[DocumentSavedEvent]>(['event'], 'documentSaved'),
    fileReplaced: new SyncHook<[FileReplacedEvent]>(['event'], 'fileReplaced'),
    documentStateChanged: new SyncHook<[DocumentStateChangedEvent]>(['event'], 'documentStateChanged'),
    workspaceOpened: new SyncHook<[WorkspaceOpenedEvent]>(['event'], 'workspaceOpened'),
    filesMoved: new AsyncSeriesWaterfallHook<[FilesMovedProposal]>(['proposal'], 'filesMoved'),
    toolCalled: new SyncHook<[ToolCalledEvent]>(['event'], 'toolCalled'),
  });
}
