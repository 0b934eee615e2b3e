/**
 * The few Electron APIs the shell's main process uses, for type-checking and linting it where the
 * optional `electron` package is not installed: npm leaves it out when its binary cannot be
 * downloaded. tsconfig.json maps `electron` to the package's own declarations first and to this file
 * only when they are absent. The signatures are electron.d.ts's (v41), narrowed to what main.ts calls;
 * `electron-types.test.ts` checks the shell against this file alone.
 */

export interface ElectronEvent {
  preventDefault(): void;
}

/** `will-navigate` and `will-redirect`: where the page is going. */
export interface NavigationEvent extends ElectronEvent {
  readonly url: string;
}

export interface WebPreferences {
  contextIsolation?: boolean;
  nodeIntegration?: boolean;
  sandbox?: boolean;
  webviewTag?: boolean;
}

export interface BrowserWindowConstructorOptions {
  width?: number;
  height?: number;
  title?: string;
  show?: boolean;
  webPreferences?: WebPreferences;
}

export interface HandlerDetails {
  readonly url: string;
}

export interface WindowOpenHandlerResponse {
  action: 'allow' | 'deny';
}

export interface WebContents {
  on(event: 'will-attach-webview', listener: (event: ElectronEvent) => void): this;
  on(event: 'will-navigate' | 'will-redirect', listener: (event: NavigationEvent) => void): this;
  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse): void;
}

export interface App {
  readonly isPackaged: boolean;
  enableSandbox(): void;
  whenReady(): Promise<void>;
  exit(exitCode?: number): void;
  quit(): void;
  on(event: 'web-contents-created', listener: (event: ElectronEvent, webContents: WebContents) => void): this;
  on(event: 'window-all-closed', listener: () => void): this;
  on(event: 'will-quit', listener: (event: ElectronEvent) => void): this;
}

export interface Session {
  setPermissionRequestHandler(
    handler:
      | ((
          webContents: WebContents,
          permission: string,
          callback: (permissionGranted: boolean) => void,
        ) => void)
      | null,
  ): void;
}

export declare const app: App;

export declare class BrowserWindow {
  constructor(options?: BrowserWindowConstructorOptions);
  readonly webContents: WebContents;
  once(event: 'ready-to-show', listener: () => void): this;
  show(): void;
  loadURL(url: string): Promise<void>;
}

export declare const dialog: {
  showErrorBox(title: string, content: string): void;
};

export declare const session: {
  readonly defaultSession: Session;
};

export declare const shell: {
  openExternal(url: string): Promise<void>;
};
