import type {
  DocumentSync,
  RefusalJson,
  RefusalReason,
  RequestMethod,
  RequestParams,
  RequestResult,
  ServerMessage,
  UiState,
  UpdateJson,
} from '../../protocol/protocol.js';
import type { PanelMessage } from '../../protocol/panel-protocol.js';
import type { UiRecoveredEdit } from '../../protocol/recovery-protocol.js';
import { documentTextOf } from './document-text-bytes.js';
import { Emitter, type Unsubscribe } from './emitter.js';
import { windowQuery } from './window-label.js';

/** A request the host refused, with the host's error code (`STALE`, `INVALID_PATH`, …). */
export class RequestRefused extends Error {
  readonly code: string;
  /** What the host knows beyond the code, for words a person reads (refusal-words.ts). */
  readonly reason: RefusalReason | undefined;

  constructor(refusal: RefusalJson) {
    super(refusal.message);
    this.code = refusal.code;
    this.reason = refusal.reason;
  }
}

/** A view provider's push to one watch (`data`), or the end of that watch (`ended`). */
export type ViewData =
  | { readonly watchId: number; readonly ended: false; readonly data: unknown }
  | { readonly watchId: number; readonly ended: true };

export interface DocumentUpdates {
  readonly tabId: string;
  readonly version: number;
  readonly updates: readonly UpdateJson[];
}

/** The renderer's one WebSocket to the host: typed requests, and the host's pushes as events. */
export class Connection {
  readonly #socket: WebSocket;
  #nextId = 1;
  readonly #pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  readonly #state = new Emitter<UiState>();
  readonly #updates = new Emitter<DocumentUpdates>();
  readonly #closed = new Emitter<void>();
  readonly #panels = new Emitter<PanelMessage>();
  readonly #treeChanged = new Emitter<string>();
  readonly #recovery = new Emitter<readonly UiRecoveredEdit[]>();
  readonly #viewData = new Emitter<ViewData>();
  readonly #commandsChanged = new Emitter<void>();
  #lastState: UiState | null = null;

  private constructor(
    socket: WebSocket,
    /** The page's token, for the texts it fetches (ADR 100). */
    private readonly token: string,
  ) {
    this.#socket = socket;
    socket.addEventListener('message', (event: MessageEvent<string>) => this.#receive(event.data));
    socket.addEventListener('close', () => {
      for (const { reject } of this.#pending.values()) reject(new Error('The connection to vmark was lost'));
      this.#pending.clear();
      this.#closed.emit();
    });
  }

  /** Connects to the page's own host with the token the page was opened with. */
  static open(location: Location): Promise<Connection> {
    const token = new URLSearchParams(location.search).get('token') ?? '';
    // A reloaded page asks for the window it was (window-label.ts).
    const socket = new WebSocket(
      `ws://${location.host}/ws?token=${encodeURIComponent(token)}${windowQuery()}`,
    );
    return new Promise((resolve, reject) => {
      socket.addEventListener('open', () => resolve(new Connection(socket, token)), { once: true });
      socket.addEventListener('error', () => reject(new Error('Could not connect to vmark')), { once: true });
    });
  }

  request<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    const id = this.#nextId++;
    return new Promise<RequestResult<M>>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** A document's text and version, and from then on its updates (`onUpdates`). */
  async subscribe(tabId: string): Promise<DocumentSync> {
    const { version, kind, textUrl } = await this.request('doc.subscribe', { tabId });
    // Fetched as the file it is, not a frame on the socket: a 10 MB frame cost the browser and any
    // debugger attached to it (the benchmark's) far more than a fetch of the same bytes (ADR 100).
    const response = await fetch(`${textUrl}?token=${encodeURIComponent(this.token)}`, { cache: 'no-store' });
    if (!response.ok) throw new Error('vmark sent no text with the document');
    return { text: documentTextOf(await response.arrayBuffer()), version, kind };
  }

  /** Called with the latest state at once (it may have come before the listener), then on every change. */
  onState(listener: (state: UiState) => void): Unsubscribe {
    if (this.#lastState !== null) listener(this.#lastState);
    return this.#state.on(listener);
  }

  onUpdates(listener: (updates: DocumentUpdates) => void): Unsubscribe {
    return this.#updates.on(listener);
  }

  onClose(listener: () => void): Unsubscribe {
    return this.#closed.on(listener);
  }

  /** A folder the page listed changed on disk (by the path the page listed it by). */
  onTreeChanged(listener: (path: string) => void): Unsubscribe {
    return this.#treeChanged.on(listener);
  }

  /** The host's pushes for the approval dialogs, the plugin manager and the history panel. */
  onPanelMessage(listener: (message: PanelMessage) => void): Unsubscribe {
    return this.#panels.on(listener);
  }

  /** What view providers push to this page's watches (ADR 49). */
  onViewData(listener: (data: ViewData) => void): Unsubscribe {
    return this.#viewData.on(listener);
  }

  /** The commands or their keys changed: list them again (ADR 61). */
  onCommandsChanged(listener: () => void): Unsubscribe {
    return this.#commandsChanged.on(listener);
  }

  /** The kept edits still waiting, after one was restored or discarded in any window. */
  onRecoveredEdits(listener: (edits: readonly UiRecoveredEdit[]) => void): Unsubscribe {
    return this.#recovery.on(listener);
  }

  #receive(data: string): void {
    const message = JSON.parse(data) as ServerMessage;
    switch (message.type) {
      case 'reply': {
        const pending = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.ok) pending?.resolve(message.result);
        else pending?.reject(new RequestRefused(message.error));
        return;
      }
      case 'state':
        this.#lastState = message.state;
        return this.#state.emit(message.state);
      case 'doc.updates':
        return this.#updates.emit(message);
      case 'tree.changed':
        return this.#treeChanged.emit(message.path);
      case 'kindViews.data':
        return this.#viewData.emit({ watchId: message.watchId, ended: false, data: message.data });
      case 'commands.changed':
        return this.#commandsChanged.emit();
      case 'kindViews.ended':
        return this.#viewData.emit({ watchId: message.watchId, ended: true });
      default:
        // Every other push is a panel's (panel-protocol.ts), settings.changed included.
        return this.#panels.emit(message);
      case 'recovery.changed':
        return this.#recovery.emit(message.edits);
    }
  }
}
