import { readdirSync, readFileSync } from 'node:fs';

/**
 * Chromium's processes under a given process, read from Linux's `/proc`: for the tests that make
 * a browser go away as a crash would (a killed renderer, a killed browser) without asking it.
 */

export interface ChromiumProcess {
  readonly pid: number;
  /** `browser` for the main process, else Chromium's `--type=` (`renderer`, `gpu-process`, …). */
  readonly type: string;
}

function parentOf(pid: number): number | null {
  try {
    // The command name (field 2) is in parentheses and may hold spaces; the parent follows it.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** The command line, as one string: Chromium's forked children rewrite theirs into one argument. */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** The Chromium processes descending from `ancestor`. */
export function chromiumProcesses(ancestor: number): ChromiumProcess[] {
  const pids = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  const descends = (pid: number): boolean => {
    for (let at: number | null = pid, hops = 0; at !== null && at > 1 && hops < 64; hops++) {
      at = parentOf(at);
      if (at === ancestor) return true;
    }
    return false;
  };
  const found: ChromiumProcess[] = [];
  for (const pid of pids) {
    const command = commandOf(pid);
    if (!/^\S*\/chromium\/chrom(e|ium)\s/.test(command) || !descends(pid)) continue;
    found.push({ pid, type: /\s--type=(\S+)/.exec(command)?.[1] ?? 'browser' });
  }
  return found;
}

/** Kills (SIGKILL) the Chromium processes of `type` under `ancestor`; how many there were. */
export function killChromium(ancestor: number, type: string): number {
  const victims = chromiumProcesses(ancestor).filter((p) => p.type === type);
  for (const victim of victims) process.kill(victim.pid, 'SIGKILL');
  return victims.length;
}
