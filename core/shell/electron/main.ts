/**
 * The Electron shell's main process: the same host and UI as `vmark serve`,
 * started in this process, shown in a native window instead of a browser tab.
 *
 *   npx electron core/dist/shell/electron/main.js [--workspace DIR] [--open FILE]...
 *
 * The page runs sandboxed with context isolation and no Node; it reaches the
 * host only through the UI server's WebSocket, as in a browser. Its URL (with
 * the per-launch token) is loaded into the window and printed nowhere.
 */
import { parseArgs } from 'node:util';
import { type EditorHost, reportKeptEdits, startEditorHost } from '../../cli/editor-host.js';
import { navigationVerdict } from './navigation-policy.js';

if (process.versions.electron === undefined) {
  process.stderr.write(
    'vmark: this is the Electron main process and needs Electron to run it:\n' +
      '  npx electron core/dist/shell/electron/main.js --workspace DIR\n' +
      'Without Electron, `vmark serve` serves the same editor to any browser.\n',
  );
  process.exit(2);
}

// Imported only once we know we run inside Electron: under plain Node the package is a path string.
const { app, BrowserWindow, dialog, session, shell } = await import('electron');

const USAGE = 'usage: electron main.js [--workspace DIR] [--open FILE]...';

// In a packaged app argv[1] is the first argument; under `electron main.js` it is the script.
const args = readArgs(process.argv.slice(app.isPackaged ? 1 : 2));
app.enableSandbox();
app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});
// Not awaited: Electron emits `ready` only once this module has finished evaluating.
void app.whenReady().then(() => start(args));

async function start(options: { workspace?: string; open?: string[] }): Promise<void> {
  let served: EditorHost;
  try {
    served = await startEditorHost({ workspace: options.workspace, open: options.open, port: 0 });
  } catch (error) {
    dialog.showErrorBox('vmark could not start', error instanceof Error ? error.message : String(error));
    app.exit(1);
    return;
  }
  // The page needs no camera, notifications or clipboard reads: every permission request is denied.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  openWindow(served.url);

  // The host lives as long as its window: closing it (on every platform) stops the servers.
  app.on('window-all-closed', () => app.quit());
  let stopped = false;
  app.on('will-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    // Unsaved edits are kept under VMARK_HOME as the host stops (ADR 34); the notes go to stderr.
    const notes = (text: string) => void process.stderr.write(text);
    void served
      .stop()
      .then((kept) => reportKeptEdits(kept, { out: notes, err: notes }))
      .catch((error: unknown) => process.stderr.write(`vmark: stopping the host failed: ${String(error)}\n`))
      .finally(() => {
        stopped = true;
        app.quit();
      });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => app.quit());
}

function openWindow(url: string): void {
  const origin = new URL(url).origin;
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    title: 'vmark',
    show: false,
    webPreferences: { contextIsolation: true, nodeIntegration: false, sandbox: true, webviewTag: false },
  });
  window.once('ready-to-show', () => window.show());
  const contents = window.webContents;
  // Links to other sites open in the system browser; the window itself never leaves the UI's origin.
  contents.setWindowOpenHandler(({ url: target }) => {
    leave(target, origin);
    return { action: 'deny' };
  });
  const guard = (event: { url: string; preventDefault(): void }) => {
    if (navigationVerdict(event.url, origin) === 'stay') return;
    event.preventDefault();
    leave(event.url, origin);
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  void window.loadURL(url);
}

function leave(target: string, origin: string): void {
  if (navigationVerdict(target, origin) === 'external') void shell.openExternal(target);
}

function readArgs(argv: string[]): { workspace?: string; open?: string[] } {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { workspace: { type: 'string' }, open: { type: 'string', multiple: true } },
      strict: true,
    });
    return values;
  } catch (error) {
    process.stderr.write(`vmark: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    process.exit(2);
  }
}
