import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { DisposableStore, HostInfoToken, toDisposable } from '@vmark/sdk';
import { WebSocketServer, type WebSocket } from 'ws';
import { HostHooksToken } from '../../tokens/host-tokens.js';
import { HostDocumentStore } from '../../documents/document-store.js';
import { FolderWatcher } from '../../documents/folder-watcher.js';
import { MAX_DOCUMENT_BYTES } from '../../documents/read-text-file.js';
import { pluginHooks } from '../../hooks/plugin-hooks.js';
import type { Host } from '../../composition/host.js';
import { McpHttpHandler, type McpHttpLimits } from '../../transports/mcp-http-handler.js';
import { type ConnectionTimeouts, createHttpServer } from '../../net/http-server.js';
import { listenOnLoopback } from '../../net/listen-on-loopback.js';
import { HostVault } from '../../vault/host-vault.js';
import { DocumentAuthority } from './document-authority.js';
import { FocusedEditor } from '../../workbench/focused-editor.js';
import { attachPanels, createPanelServices } from './panel-services.js';
import { RecoveryCopies } from './recovery-copies.js';
import { type KeptEdits, UiRecovery } from './recovery-service.js';
import { isPluginUiPath, readPluginUiFile } from './plugin-ui-files.js';
import { RequestGuard } from './request-guard.js';
import type { UiRecoveredEdit } from '../../protocol/recovery-protocol.js';
import { type Asset, StaticAssets } from './static-assets.js';
import { QuickOpenService } from './quick-open-service.js';
import { VaultSearch } from './vault-search.js';
import { isVaultImagePath, VaultImages } from './vault-images.js';
import { FileOperations } from './file-operations.js';
import { systemTrashFolder } from '../../vault/trash.js';
import { HostWorkspaceFiles } from '../../workspace-files/host-workspace-files.js';
import { CheckpointStore } from '../../history/checkpoint-store.js';
import { RecentFiles } from '../../workbench/recent-files.js';
import { DOCUMENT_TEXT_PREFIX, DocumentTexts } from './document-texts.js';
import { UiConnection, type UiServices } from './ui-connection.js';
import { uiState } from './ui-state.js';
import { requestedWindow } from './requested-window.js';
import { WindowClaims } from './window-claims.js';
import { WindowStates } from './window-states.js';

export interface UiServerOptions {
  /** 0 picks a free port. */
  readonly port: number;
  /** The per-launch token every request must carry. */
  readonly token: string;
  /** Where the renderer's build (index.html, renderer.js, renderer.css) lies. */
  readonly assetsDir: string;
  /** Defaults in `DEFAULT_CONNECTION_TIMEOUTS`, as for `vmark mcp --http`; tests shorten them. */
  readonly timeouts?: Partial<ConnectionTimeouts>;
  /** The limits of the MCP endpoint at `/mcp`. */
  readonly mcp?: McpHttpLimits;
}

export interface UiServer {
  /** The page to open, token included. */
  readonly url: string;
  /** MCP (Streamable HTTP) on the same port; the same token, as `Authorization: Bearer`. */
  readonly mcpUrl: string;
  /** Unsaved edits an earlier host kept, waiting to be restored or discarded (ADR 34). */
  recoveredEdits(): Promise<readonly UiRecoveredEdit[]>;
  /** Keeps a copy of every buffer with unsaved changes, before the host stops (ADR 34). */
  keepUnsavedEdits(): Promise<KeptEdits>;
  close(): Promise<void>;
}

/** A whole document travels in one message (a push of a pasted file, a snapshot): leave room for the largest. */
const MAX_MESSAGE_BYTES = 2 * MAX_DOCUMENT_BYTES;

/**
 * The UI server: the renderer's files over HTTP and its WebSocket API at `/ws`,
 * on 127.0.0.1 only, every request checked by the `RequestGuard`.
 */
export async function startUiServer(host: Host, options: UiServerOptions): Promise<UiServer> {
  const assets = await StaticAssets.load(options.assetsDir, options.token);
  // The port first: a port in use ends the start before anything is set up that would need undoing.
  const server = createHttpServer(options.timeouts);
  const port = await listenOnLoopback(server, options.port);
  const disposables = new DisposableStore();
  /** Every open renderer, with its socket. */
  const sockets = new Map<UiConnection, WebSocket>();
  const hooks = host.container.get(HostHooksToken);
  const authority = disposables.add(new DocumentAuthority(host.container.get(HostDocumentStore), hooks));
  disposables.add(
    authority.onUpdates((documentId, version, updates) => {
      for (const connection of sockets.keys()) connection.deliver(documentId, version, updates);
    }),
  );

  const vault = host.container.get(HostVault);
  // Each page is a workbench window of its own and is sent that window's state.
  const documents = host.container.get(HostDocumentStore);
  const states = disposables.add(
    new WindowStates((label) => uiState(host.workbench, documents, vault, label)),
  );
  const stateChanged = states.changed;
  const claims = disposables.add(new WindowClaims(host.workbench));
  const tap = pluginHooks(hooks, 'ui-server');
  for (const name of [
    'documentOpened',
    'documentWritten',
    'documentSaved',
    'documentStateChanged',
    'workspaceOpened',
  ] as const) {
    disposables.add(tap.tap(name, stateChanged));
  }
  // An AI client's close, switch or new tab has no hook of its own; every tool call may have done one.
  disposables.add(tap.tap('toolCalled', stateChanged));
  // A plugin's tab changes by itself: its page loads, its title changes, the person takes it over.
  disposables.add(host.workbench.onProvidedTabsChanged(stateChanged));

  const quickOpen = disposables.add(
    new QuickOpenService(
      host.workbench,
      vault,
      host.container.get(HostWorkspaceFiles),
      RecentFiles.in(host.container.get(HostInfoToken).home),
    ),
  );
  const services: UiServices = {
    workbench: host.workbench,
    vault,
    documents: host.container.get(HostDocumentStore),
    authority,
    stateChanged,
    focusedEditor: host.container.get(FocusedEditor),
    panels: disposables.add(createPanelServices(host)),
    folders: host.container.get(FolderWatcher),
    recovery: disposables.add(
      new UiRecovery(
        new RecoveryCopies(host.container.get(HostInfoToken).home),
        host.workbench,
        host.container.get(HostDocumentStore),
      ),
    ),
    quickOpen,
    search: disposables.add(
      new VaultSearch(quickOpen, host.workbench, vault, documents, host.container.get(CheckpointStore)),
    ),
    files: new FileOperations(
      quickOpen,
      host.workbench,
      vault,
      documents,
      host.container.get(CheckpointStore),
      hooks,
      systemTrashFolder(),
    ),
  };
  // The workspace's images for the page, and pasted images saved (ADR 74).
  const images = new VaultImages({
    resolve: (input) => vault.resolve(input),
    roots: () => vault.roots(),
    filesOf: async (root) => {
      const index = quickOpen.indexOf(root);
      await index.ready;
      return index.index.paths();
    },
  });
  const texts = disposables.add(new DocumentTexts());
  const webSockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  webSockets.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const windowLabel = claims.claim(socket, requestedWindow(request));
    const connection = new UiConnection(
      services,
      (message) => socket.send(JSON.stringify(message)),
      (bytes, sent) => texts.offer(bytes, sent),
      windowLabel,
    );
    sockets.set(connection, socket);
    const panels = attachPanels(services.panels, (message) => socket.send(JSON.stringify(message)));
    const recovery = services.recovery.attach((message) => socket.send(JSON.stringify(message)));
    socket.on('message', (data, isBinary) => {
      if (!isBinary) connection.receive(rawText(data));
    });
    socket.on('close', () => {
      sockets.delete(connection);
      panels.dispose();
      recovery.dispose();
      connection.dispose();
      states.remove(socket);
      claims.release(socket, stateChanged);
    });
    states.add(socket, windowLabel, (json) => socket.send(json));
  });
  disposables.add(
    toDisposable(() => {
      for (const socket of sockets.values()) socket.terminate();
      webSockets.close();
    }),
  );

  /** The modules of the kind views a page of this window shows first: those of its tabs' kinds. */
  const viewsOfOpenTabs = (windowLabel: string | null): string[] =>
    services.panels.kindViews.modulesFor(
      uiState(host.workbench, documents, vault, windowLabel ?? 'main').window.tabs.map((tab) => tab.kind),
    );

  const guard = new RequestGuard(port, options.token);
  const csp = contentSecurityPolicy(guard.webSocketOrigins, assets.scriptHashes);

  // MCP takes its token as a bearer header and checks Host and Origin itself; it reads the body.
  const mcp = new McpHttpHandler(host, { ...options.mcp, port, token: options.token });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/mcp') return mcp.handle(request, response);
    const refusal = guard.refusal(request, url);
    if (refusal) {
      request.resume();
      return plain(response, refusal.status, refusal.reason);
    }
    // Reads its own body (a pasted image), bounded.
    if (isVaultImagePath(url.pathname)) return void images.handle(request, response, url);
    request.resume();
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return plain(response, 405, 'Method not allowed');
    if (url.pathname.startsWith(DOCUMENT_TEXT_PREFIX)) {
      // Only a GET takes an offer (it is one fetch): a HEAD would spend it and deliver nothing.
      if (request.method !== 'GET') return plain(response, 405, 'Method not allowed');
      const offered = texts.take(url.pathname);
      if (offered === undefined) return plain(response, 404, 'Not found');
      const { bytes } = offered;
      response.once('finish', offered.sent);
      const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return send(response, request, { type: 'text/plain; charset=utf-8', body });
    }
    if (isPluginUiPath(url.pathname)) {
      // A panel's or a kind view's module, read from its plugin's ui/ folder on each request (ADR 20, 35).
      const folders = [...host.plugins.activePanels(), ...host.plugins.activeViews()];
      void readPluginUiFile(url.pathname, folders).then((file) =>
        file ? send(response, request, file) : plain(response, 404, 'Not found'),
      );
      return;
    }
    const asset =
      url.pathname === '/'
        ? assets.page(viewsOfOpenTabs(requestedWindow(request)))
        : assets.get(url.pathname);
    if (!asset) return plain(response, 404, 'Not found');
    send(response, request, asset);
  });
  const send = (response: ServerResponse, request: IncomingMessage, asset: Asset) => {
    response.writeHead(200, {
      'content-type': asset.type,
      'content-length': asset.body.length,
      'cache-control': 'no-store',
      'content-security-policy': csp,
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'cross-origin-opener-policy': 'same-origin',
    });
    response.end(request.method === 'HEAD' ? undefined : asset.body);
  };
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const refusal =
      url.pathname === '/ws' ? guard.refusal(request, url) : { status: 404, reason: 'Not found' };
    if (refusal) {
      socket.end(
        `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    webSockets.handleUpgrade(request, socket, head, (ws) => webSockets.emit('connection', ws, request));
  });

  return {
    url: `http://127.0.0.1:${port}/?token=${encodeURIComponent(options.token)}`,
    mcpUrl: `http://127.0.0.1:${port}/mcp`,
    recoveredEdits: () => services.recovery.list(),
    keepUnsavedEdits: () => services.recovery.keepUnsavedEdits(),
    async close() {
      await mcp.close();
      await services.quickOpen.flushed();
      disposables.dispose();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function contentSecurityPolicy(webSocketOrigins: readonly string[], scriptHashes: readonly string[]): string {
  return [
    "default-src 'none'",
    // The page's import map is inline: admitted by its hash alone, never 'unsafe-inline' (ADR 35).
    ["script-src 'self'", ...scriptHashes].join(' '),
    // CodeMirror writes its theme into <style> elements at run time.
    "style-src 'self' 'unsafe-inline'",
    // A view's own fonts, served with its module (KaTeX's, ADR 73); never a CDN's.
    "font-src 'self'",
    // 'self': a pasted image is posted to /vault/attachment (ADR 74).
    `connect-src 'self' ${webSocketOrigins.join(' ')}`,
    // Remote images load only where the person allowed remote content (the view asks the setting).
    "img-src 'self' data: http: https:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  response.end(text + '\n');
}

function rawText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
