import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const sandbox = process.getuid?.() === 0 ? ['--no-sandbox'] : [];

/**
 * A Chromium with a CDP port of its own, started apart from vmark (a browser that runs
 * elsewhere, VMARK_BROWSER_ENDPOINT): its process and its `ws://…/devtools/browser/…` address.
 */
export async function startCdpChromium(
  dir: string,
  args: readonly string[] = [],
): Promise<{ child: ChildProcess; endpoint: string }> {
  const child = spawn('/usr/bin/chromium', [
    ...sandbox,
    '--headless',
    '--remote-debugging-port=0',
    `--user-data-dir=${dir}`,
    ...args,
    'about:blank',
  ]);
  const endpoint = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stderr }).on('line', (line) => {
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(line);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`chromium exited (${code})`)));
  });
  return { child, endpoint };
}
