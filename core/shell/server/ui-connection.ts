import type { Disposable } from '@vmark/sdk';
import { isArgumentError, isDomainError, SerialQueue } from '@vmark/sdk';
import type { HostDocumentStore } from '../../documents/document-store.js';
import type { FolderWatcher } from '../../documents/folder-watcher.js';
import type { HostVault } from '../../vault/host-vault.js';
import type { HostWorkbench } from '../../workbench/workbench.js';
import type {
  ClientMessage,
  RefusalJson,
  RequestMethod,
  RequestResult,
  ServerMessage,
  UpdateJson,
} from '../../protocol/protocol.js';
import { parseClientMessage } from './client-message.js';
import type { DocumentAuthority } from './document-authority.js';
import { acceptEditorReport } from './editor-report.js';
import { UiRefusal } from './open-refusal.js';
import type { FocusedEditor } from '../../workbench/focused-editor.js';
import { panelHandlers, type PanelServices } from './panel-services.js';
import type { QuickOpenService } from './quick-open-service.js';
import type { VaultSearch } from './vault-search.js';
import type { FileOperations } from './file-operations.js';
import { TreeWatch } from './tree-watch.js';
import { ViewWatches } from './view-watches.js';
import { recoveryHandlers, type UiRecovery } from './recovery-service.js';
import { windowHandlers } from './window-handlers.js';

/** The host services a renderer works with. */
export interface UiServices {
  readonly workbench: HostWorkbench;
  readonly vault: HostVault;
  readonly documents: HostDocumentStore;
  readonly authority: DocumentAuthority;
  /** Tells every renderer that the workbench may have changed. */
  readonly stateChanged: () => void;
  /** The pages' reports of their editors, for `selection.*`. */
  readonly focusedEditor: FocusedEditor;
  /** Approval dialogs, plugin manager, AI edit history. */
  readonly panels: PanelServices;
  /** The host's folder watches, shared: the file list follows the folders a page unfolded. */
  readonly folders: Pick<FolderWatcher, 'watchFolder'>;
  /** Unsaved edits an earlier host kept, offered back (ADR 34). */
  readonly recovery: UiRecovery;
  /** The workspace's files and the person's recent ones (ADR 62). */
  readonly quickOpen: QuickOpenService;
  /** Search and replace across the workspace's files (ADR 68). */
  readonly search: VaultSearch;
  /** The file list's create, rename, move, delete, duplicate (ADR 70). */
  readonly files: FileOperations;
}

/** Requests that change nothing the tab strip shows: no state push after them. */
const QUIET_METHODS: ReadonlySet<RequestMethod> = new Set([
  'doc.push',
  'tree.list',
  'tree.fold',
  'editor.report',
  'quickOpen.query',
  'search.query',
  // A view's input and frames: what they change (who drives a tab) its provider tells itself.
  'kindViews.request',
  'kindViews.watch',
  'kindViews.unwatch',
  'commands.list',
]);

type Handlers = {
  [M in RequestMethod]: (
    params: Extract<ClientMessage, { method: M }>['params'],
  ) => RequestResult<M> | Promise<RequestResult<M>>;
};

/**
 * One renderer's WebSocket: answers its requests in the order they arrive and
 * forwards the confirmed updates of the documents it has subscribed to.
 */
export class UiConnection implements Disposable {
  /** documentId → the tabId this renderer knows the document by. */
  #subscribed = new Map<string, string>();
  /** Documents sent to this page whose rope is split once the text is sent or its editor reports (ADR 100). */
  #ropesDue = new Set<string>();
  readonly #queue = new SerialQueue();
  readonly #handlers: Handlers;
  readonly #tree: TreeWatch;
  readonly #watches: ViewWatches;

  constructor(
    private readonly services: UiServices,
    private readonly send: (message: ServerMessage) => void,
    /**
     * Offers a subscribed document's text for the page to fetch once (`sent` once it is written):
     * the path to fetch it at (ADR 100).
     */
    private readonly offerText: (bytes: Uint8Array, sent: () => void) => string,
    /** The workbench window this page shows. */
    windowLabel = 'main',
  ) {
    const { workbench, vault, documents, authority } = services;
    const documentOf = (tabId: string) => workbench.resolveTab(tabId).documentId;
    this.#tree = new TreeWatch(services.folders, (path) => this.send({ type: 'tree.changed', path }));
    this.#watches = new ViewWatches(services.panels.kindViews, (message) => this.send(message));
    const plugins = () => services.panels.plugins.list();
    // The person opening a file or picking a tab: it becomes their most recent (quick open).
    const windows = windowHandlers(workbench, windowLabel, plugins);
    this.#handlers = {
      'tree.list': async ({ path }) => ({ entries: await this.#tree.list(vault, path) }),
      'tree.fold': ({ path }) => {
        this.#tree.fold(path);
        return {};
      },
      'tab.switch': async ({ tabId }) => {
        const { activeTabId } = workbench.switchTab(tabId);
        await services.quickOpen.opened(services.quickOpen.fileOfTab(tabId));
        return { activeTabId };
      },
      'tab.close': async ({ tabId, force }) => {
        // A tab a plugin keeps has no document: its plugin closes it (ADR 56).
        if (workbench.isProvided(windowLabel, tabId)) {
          await workbench.closeProvided(windowLabel, tabId);
          return { closed: true };
        }
        const documentId = documentOf(tabId);
        const result = workbench.close(tabId, { force });
        if (result.closed) {
          this.#subscribed.delete(documentId);
          this.#ropesDue.delete(documentId);
        }
        return { closed: result.closed };
      },
      'tab.save': async ({ tabId }) => ({ saved: !(await documents.save(documentOf(tabId))).dirty }),
      'tab.resolveConflict': async ({ tabId, choice, diskSha256 }) => ({
        dirty: (await documents.resolveConflict(documentOf(tabId), choice, diskSha256)).dirty,
      }),
      'doc.subscribe': ({ tabId }) => {
        const documentId = documentOf(tabId);
        this.#subscribed.set(documentId, tabId);
        const { utf8, version, kind } = authority.snapshot(documentId);
        // Fetched by the page, as a file is (not a frame on the socket): ADR 100.
        const textUrl = this.offerText(utf8(), () => this.#splitRopeOnce(documentId));
        // The editor's first keystroke is applied to the text's rope (ADR 81): split it (and decode
        // a text read from disk, ADR 100) once the text is sent or the page's editor reports, while
        // the page decodes it and builds its editor, rather than in that keystroke's answer (ADR 86)
        // or while the host writes the text to the page.
        this.#ropesDue.add(documentId);
        return { version, kind, textUrl };
      },
      'doc.unsubscribe': ({ tabId }) => {
        this.#subscribed.delete(documentOf(tabId));
        this.#ropesDue.delete(documentOf(tabId));
        return {};
      },
      'doc.push': async ({ tabId, version, updates }) => ({
        accepted: await authority.push(documentOf(tabId), version, updates),
      }),
      'editor.report': ({ editor }) => {
        const accepted = acceptEditorReport(this, editor, services);
        if (editor !== null) this.#splitRopeOnce(documentOf(editor.tabId));
        return accepted;
      },
      'commands.run': ({ id, tabId }) => services.panels.commands.run(id, { windowLabel, tabId }),
      ...panelHandlers(services.panels),
      ...this.#watches.handlers(),
      ...windows,
      'tab.open': async (params) => {
        const opened = await windows['tab.open'](params);
        await services.quickOpen.opened(services.quickOpen.fileOfTab(opened.tabId));
        return opened;
      },
      ...services.quickOpen.handlers(windowLabel, plugins),
      ...services.search.handlers(windowLabel),
      ...services.files.handlers(windowLabel),
      ...recoveryHandlers(services.recovery, windowLabel),
    };
  }

  /** A message from the renderer; requests are answered one after another, in order. */
  receive(raw: string): void {
    void this.#queue.run(() => this.#answer(raw));
  }

  /** Confirmed updates of a document, forwarded if this renderer shows it. */
  deliver(documentId: string, version: number, updates: readonly UpdateJson[]): void {
    const tabId = this.#subscribed.get(documentId);
    if (tabId === undefined) return;
    this.send({ type: 'doc.updates', tabId, version, updates });
    const { revision } = this.services.documents.get(documentId);
    this.services.focusedEditor.mapThrough(this, documentId, version, updates, revision);
  }

  dispose(): void {
    this.#tree.dispose();
    this.#watches.dispose();
    this.#subscribed.clear();
    this.#ropesDue.clear();
    this.services.focusedEditor.forget(this);
  }

  /** Splits the rope of a document sent to this page, once, off the current task. */
  #splitRopeOnce(documentId: string): void {
    if (!this.#ropesDue.delete(documentId)) return;
    setImmediate(() => {
      try {
        void this.services.documents.textOf(documentId).rope;
      } catch {
        // Closed meanwhile (by any window or client): nothing to prepare.
      }
    });
  }

  async #answer(raw: string): Promise<void> {
    const parsed = parseClientMessage(raw);
    if (!parsed.ok) {
      if (parsed.id !== null) this.#refuse(parsed.id, { code: 'INVALID_ARGUMENT', message: parsed.reason });
      return;
    }
    const { id, method, params } = parsed.message;
    try {
      const handler = this.#handlers[method] as (p: typeof params) => unknown;
      const result = await handler(params);
      this.send({ type: 'reply', id, ok: true, result });
    } catch (error) {
      this.#refuse(id, refusalOf(error));
    } finally {
      // Opening, closing, switching and saving all show in the tab strip.
      if (!QUIET_METHODS.has(method)) this.services.stateChanged();
    }
  }

  #refuse(id: number, error: RefusalJson): void {
    this.send({ type: 'reply', id, ok: false, error });
  }
}

function refusalOf(error: unknown): RefusalJson {
  if (error instanceof UiRefusal) return error.refusal;
  if (isDomainError(error)) return { code: error.code, message: error.message };
  if (isArgumentError(error)) return { code: 'INVALID_ARGUMENT', message: error.message };
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}
