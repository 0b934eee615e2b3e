/**
 * A first index build of a large vault takes seconds: `vmark coherence status|edges` says how
 * far it has come on stderr (stdout keeps the answer alone). Quiet for a quick answer; after
 * that, one line a phase change or every `every` ms at most.
 */
import type { ReportProgress } from '@vmark/sdk';

export interface ProgressLinesOptions {
  /** Nothing is said before this long has passed (ms). */
  readonly after?: number;
  /** At most one line this often within a phase (ms). */
  readonly every?: number;
  readonly clock?: () => number;
}

export function progressLines(
  write: (text: string) => void,
  options: ProgressLinesOptions = {},
): ReportProgress {
  const clock = options.clock ?? Date.now;
  const after = options.after ?? 500;
  const every = options.every ?? 1000;
  const started = clock();
  let lastAt = -Infinity;
  let lastPhase: string | undefined;
  return (done, total, message) => {
    if (message === undefined) return;
    const now = clock();
    if (now - started < after) return;
    // "read 120 of 20016 Markdown files" and "read 130 of …" are one phase.
    const phase = message.replace(/\d+/g, '#');
    if (phase === lastPhase && now - lastAt < every && done !== total) return;
    lastPhase = phase;
    lastAt = now;
    write(`vmark coherence: ${message}\n`);
  };
}
