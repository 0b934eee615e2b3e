import type { Browser } from 'playwright-core';
import type { TempDirs } from './cli.js';
import { allowPrivateNetwork, type LocalPage, type LocalRoutes, serveLocalPage } from './local-page.js';
import { type EditorSession, sharedChromium, startEditorSession } from './ui.js';

/** The editor of a `vmark serve` whose browser may reach a page served on 127.0.0.1. */
export interface BrowserEditor {
  readonly browser: Browser;
  readonly session: EditorSession;
  /** The page's origin, `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The paths the page's server was asked for. */
  readonly asked: LocalPage['asked'];
  close(): Promise<void>;
}

export async function startBrowserEditor(
  temp: TempDirs,
  html: string,
  routes?: LocalRoutes,
): Promise<BrowserEditor> {
  const page = await serveLocalPage(html, routes);
  // The host reads it when it starts: the page is on this machine.
  const restoreEnv = allowPrivateNetwork();
  const browser = await sharedChromium();
  const session = await startEditorSession(temp, browser, { 'Welcome.md': '# Welcome\n' }, 'Welcome.md');
  return {
    browser,
    session,
    origin: page.origin,
    asked: page.asked,
    async close() {
      await session.close();
      page.close();
      restoreEnv();
    },
  };
}
