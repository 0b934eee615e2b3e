/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/*
 * World code (see ../world/world-dom.ts): runs in the page's isolated world, self-contained.
 */

export interface ConsoleEntry {
  readonly level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  readonly text: string;
}

/** What the console shim holds: its entries, and how many fell out of its ring unread. */
export interface ConsoleBuffer {
  readonly entries: ConsoleEntry[];
  readonly dropped: number;
}

/** Reads the page-world console shim's ring (console-shim.ts) from the isolated world. */
export interface WorldConsole {
  /** The shim's entries (`drain`: and empties its ring); null when this document has no shim. */
  read(requestEvent: string, replyEvent: string, drain: boolean): ConsoleBuffer | null;
}

export function installConsole(): WorldConsole {
  const MAX_ENTRIES = 200;
  const MAX_CHARS = 2000;
  const LEVELS = new Set(['log', 'info', 'warn', 'error', 'debug']);

  return {
    read(requestEvent, replyEvent, drain) {
      let reply: unknown = null;
      const onReply = (event: Event) => {
        // The first answer only: the page could add its own, but it could also just log lies.
        if (reply === null && event instanceof CustomEvent) reply = event.detail;
      };
      addEventListener(replyEvent, onReply);
      try {
        // Dispatch is synchronous: the shim's answer has arrived when it returns.
        dispatchEvent(new CustomEvent(requestEvent, { detail: drain ? 'drain' : 'read' }));
      } finally {
        removeEventListener(replyEvent, onReply);
      }
      if (typeof reply !== 'string') return null;
      // What comes back is the page's to shape: parse it and keep only well-formed, bounded entries.
      let parsed: unknown;
      try {
        parsed = JSON.parse(reply);
      } catch {
        return null;
      }
      if (typeof parsed !== 'object' || parsed === null) return null;
      const { entries, dropped } = parsed as { entries?: unknown; dropped?: unknown };
      const kept: ConsoleEntry[] = [];
      if (Array.isArray(entries)) {
        for (const entry of entries.slice(-MAX_ENTRIES)) {
          const { level, text } = (entry ?? {}) as { level?: unknown; text?: unknown };
          if (typeof level !== 'string' || !LEVELS.has(level) || typeof text !== 'string') continue;
          kept.push({ level: level as ConsoleEntry['level'], text: text.slice(0, MAX_CHARS) });
        }
      }
      const lost = typeof dropped === 'number' && Number.isSafeInteger(dropped) && dropped > 0 ? dropped : 0;
      return { entries: kept, dropped: lost };
    },
  };
}
