/**
 * `browser_read console` / `browser console_clear`: the console shim (console-shim.ts) is
 * registered for every new document of an AI tab's main frame, at document start, before the
 * page's own scripts; reading it goes through the isolated world (world-console.ts). The pair
 * of event names is made per tab, so a page cannot guess them.
 */
import { randomUUID } from 'node:crypto';
import type { IsolatedWorld } from '../isolated-world.js';
import { consoleShim } from './console-shim.js';
import type { ConsoleBuffer } from './world-console.js';

export class ConsoleCapture {
  readonly #request = `vmark-console-${randomUUID()}`;
  readonly #reply = `vmark-console-${randomUUID()}`;

  constructor(private readonly world: IsolatedWorld) {}

  /** Registers the shim; call before the tab's first navigation. */
  async install(): Promise<void> {
    const session = await this.world.session();
    await session.send('Page.addScriptToEvaluateOnNewDocument', {
      source: `(${consoleShim.toString()})(${JSON.stringify(this.#request)}, ${JSON.stringify(this.#reply)});`,
      runImmediately: true,
    });
  }

  /** What the shim holds (`drain`: and empties it). A document without the shim has nothing. */
  async read(drain: boolean): Promise<ConsoleBuffer> {
    const buffer = await this.world.library<ConsoleBuffer | null>(undefined, 'console', 'read', [
      this.#request,
      this.#reply,
      drain,
    ]);
    return buffer ?? { entries: [], dropped: 0 };
  }
}
