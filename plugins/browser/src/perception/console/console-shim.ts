/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The console shim: the one piece of vmark that runs in the page's own world (DESIGN §9),
 * installed at document start in the main frame of AI-owned tabs. It keeps console.* calls,
 * uncaught errors and unhandled rejections in a bounded ring inside its own closure — no DOM
 * node, nothing the page can read — and hands a copy (or the whole ring, drained) to the
 * isolated world when asked through a pair of DOM events whose names only vmark knows. It
 * never talks to the host: a page flooding its console costs the host nothing.
 *
 * Serialized with Function.prototype.toString: self-contained, no imports at run time.
 * Everything it uses is captured before the page's scripts run, so a page that later
 * replaces Array.prototype, JSON or EventTarget cannot steer it; a page that replaces
 * console.log itself simply stops being captured.
 */
export function consoleShim(requestEvent: string, replyEvent: string): void {
  if (window.top !== window) return;
  const MAX_ENTRIES = 200;
  const MAX_CHARS = 2000;
  const apply = Reflect.apply;
  const stringify = JSON.stringify;
  const toText = String;
  // Taken unbound on purpose, before the page can replace them; called with an explicit `this`.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const slice = String.prototype.slice;
  const createObject = Object.create;
  const ErrorType = Error;
  const NodeType = Node;
  const ErrorEventType = ErrorEvent;
  const Custom = CustomEvent;
  const ProxyType = Proxy;
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const listen = EventTarget.prototype.addEventListener;
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const dispatch = EventTarget.prototype.dispatchEvent;
  const target = window;
  const pageConsole = console;

  // Null-prototype storage: no page-defined setter on a prototype can intercept a write.
  let levels = createObject(null) as Record<number, string>;
  let texts = createObject(null) as Record<number, string>;
  let first = 0;
  let size = 0;
  let dropped = 0;

  const cut = (text: string): string =>
    text.length > MAX_CHARS ? apply<string, [number, number], string>(slice, text, [0, MAX_CHARS]) : text;

  const push = (level: string, text: string) => {
    const at = (first + size) % MAX_ENTRIES;
    levels[at] = level;
    texts[at] = cut(text);
    if (size < MAX_ENTRIES) size++;
    else {
      first = (first + 1) % MAX_ENTRIES;
      dropped++;
    }
  };

  const describe = (value: unknown): string => {
    try {
      if (typeof value === 'string') return value;
      if (value instanceof ErrorType) return `${toText(value.name)}: ${toText(value.message)}`;
      if (typeof value === 'function') return `function ${toText((value as { name?: unknown }).name ?? '')}`;
      if (value === null || typeof value !== 'object') return toText(value);
      if (value instanceof NodeType)
        return `<${toText((value as unknown as Element).localName ?? value.nodeName)}>`;
      const json = stringify(value);
      return typeof json === 'string' ? json : toText(value);
    } catch {
      return '[unprintable value]';
    }
  };

  const format = (args: readonly unknown[]) => {
    let text = '';
    for (let i = 0; i < args.length && text.length <= MAX_CHARS; i++)
      text += (i > 0 ? ' ' : '') + describe(args[i]);
    return text;
  };

  const METHODS = ['log', 'info', 'warn', 'error', 'debug'];
  for (let i = 0; i < METHODS.length; i++) {
    const method = METHODS[i]!;
    const original = (pageConsole as unknown as Record<string, unknown>)[method];
    if (typeof original !== 'function') continue;
    // A proxy keeps the native function's name and its "[native code]" source text.
    (pageConsole as unknown as Record<string, unknown>)[method] = new ProxyType(original, {
      apply(fn, self, args: unknown[]) {
        try {
          push(method, format(args));
        } catch {
          // Capturing must never break the page's own logging.
        }
        return apply(fn as (...a: unknown[]) => unknown, self, args);
      },
    });
  }

  apply(listen, target, [
    'error',
    (event: Event) => {
      if (!(event instanceof ErrorEventType)) return;
      const error: unknown = event.error;
      push(
        'error',
        `Uncaught ${error !== undefined && error !== null ? describe(error) : toText(event.message)}`,
      );
    },
  ]);
  apply(listen, target, [
    'unhandledrejection',
    (event: PromiseRejectionEvent) => push('error', `Unhandled rejection: ${describe(event.reason)}`),
  ]);

  apply(listen, target, [
    requestEvent,
    (event: CustomEvent) => {
      // Built by hand: JSON.stringify of an array or object would consult a page-defined toJSON.
      let json = '{"dropped":' + toText(dropped) + ',"entries":[';
      for (let i = 0; i < size; i++) {
        const at = (first + i) % MAX_ENTRIES;
        json +=
          (i > 0 ? ',' : '') + '{"level":' + stringify(levels[at]) + ',"text":' + stringify(texts[at]) + '}';
      }
      json += ']}';
      if (event.detail === 'drain') {
        levels = createObject(null) as Record<number, string>;
        texts = createObject(null) as Record<number, string>;
        first = 0;
        size = 0;
        dropped = 0;
      }
      apply(dispatch, target, [new Custom(replyEvent, { detail: json })]);
    },
  ]);
}
