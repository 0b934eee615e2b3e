/**
 * What `browser_read console` and `browser console_clear` answer (the same shape; the second
 * also empties the tab's buffer): `{entries, url}`, and `dropped` when older entries fell out
 * of the shim's ring unread.
 */
import { withDeadline } from '../perception/deadline.js';
import type { ConsoleEntry } from '../perception/console/world-console.js';
import type { BrowserTab } from '../tabs/browser-tab.js';

export interface ConsoleOutput {
  readonly entries: ConsoleEntry[];
  readonly url: string;
  readonly dropped?: number;
}

const CONSOLE_DEADLINE_MS = 10_000;

export async function consoleOutput(tab: BrowserTab, drain: boolean): Promise<ConsoleOutput> {
  const buffer = await withDeadline(tab.perception.console.read(drain), CONSOLE_DEADLINE_MS, 'console');
  return {
    entries: buffer.entries,
    url: tab.url,
    ...(buffer.dropped > 0 ? { dropped: buffer.dropped } : {}),
  };
}
