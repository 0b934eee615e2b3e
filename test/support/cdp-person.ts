import WebSocket from 'ws';

/**
 * A person at a page of a browser that vmark drives (one started with a CDP port): they click
 * and type with real input (CDP `Input.*` on the page's own DevTools connection, trusted events
 * as a person's are), as their input in the editor's view of the tab reaches it — apart from
 * vmark, which never sees this connection.
 */
export class CdpPerson {
  #next = 1;
  readonly #pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  readonly #events = new Set<(method: string) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as {
        id?: number;
        method?: string;
        result?: unknown;
        error?: { message: string };
      };
      if (message.method !== undefined) for (const listener of this.#events) listener(message.method);
      const waiting = message.id === undefined ? undefined : this.#pending.get(message.id);
      if (waiting === undefined) return;
      this.#pending.delete(message.id!);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
    });
  }

  /** At the page of the browser at `endpoint` whose URL contains `urlPart`. */
  static async at(endpoint: string, urlPart: string): Promise<CdpPerson> {
    const targets = (await (await fetch(`http://${new URL(endpoint).host}/json/list`)).json()) as {
      type: string;
      url: string;
      webSocketDebuggerUrl: string;
    }[];
    const page = targets.find((target) => target.type === 'page' && target.url.includes(urlPart));
    if (page === undefined) throw new Error(`no page at ${urlPart}`);
    const socket = new WebSocket(page.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new CdpPerson(socket);
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** A left click in the middle of the element `selector` finds. */
  async click(selector: string): Promise<void> {
    const { result } = await this.send<{ result: { value: { x: number; y: number } | null } }>(
      'Runtime.evaluate',
      {
        expression: `(() => {
          const element = document.querySelector(${JSON.stringify(selector)});
          if (!element) return null;
          element.scrollIntoView({ block: 'center' });
          const box = element.getBoundingClientRect();
          return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
        })()`,
        returnByValue: true,
      },
    );
    if (result.value === null) throw new Error(`nothing at ${selector}`);
    const { x, y } = result.value;
    await this.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
    for (const type of ['mousePressed', 'mouseReleased'])
      await this.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1 });
  }

  /** Clicks into the field `selector` finds and types `text` there. */
  async typeInto(selector: string, text: string): Promise<void> {
    await this.click(selector);
    await this.send('Input.insertText', { text });
  }

  /** Runs `act` (a submit, say) and waits for the page it sends the tab to to load. */
  async loadsAfter(act: () => Promise<void>): Promise<void> {
    await this.send('Page.enable');
    let listener: ((method: string) => void) | undefined;
    const loaded = new Promise<void>((resolve) => {
      listener = (method) => {
        if (method === 'Page.loadEventFired') resolve();
      };
      this.#events.add(listener);
    });
    await act();
    await loaded;
    this.#events.delete(listener!);
  }

  close(): void {
    this.socket.close();
  }
}
