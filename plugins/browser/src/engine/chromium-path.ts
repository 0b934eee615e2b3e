/**
 * Where the Chromium a local browser runs from is (DESIGN §7): `VMARK_CHROMIUM`, then Debian's
 * `/usr/bin/chromium`, then the one Playwright installs. Nothing found is a clear error that
 * says how to get one, never a fallback that pretends.
 */
import { accessSync, constants } from 'node:fs';
import { TokenError } from '@vmark/sdk';
import { playwrightChromium } from './playwright-chromium.js';

const DEBIAN = '/usr/bin/chromium';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const chosen = env.VMARK_CHROMIUM;
  if (chosen !== undefined && chosen !== '') {
    if (executable(chosen)) return chosen;
    throw unavailable(`VMARK_CHROMIUM names ${JSON.stringify(chosen)}, which is not an executable program`);
  }
  if (executable(DEBIAN)) return DEBIAN;
  let bundled: string | undefined;
  try {
    bundled = (await playwrightChromium()).executablePath();
  } catch {
    bundled = undefined;
  }
  if (bundled !== undefined && executable(bundled)) return bundled;
  throw unavailable('no Chromium was found');
}

function unavailable(why: string): TokenError {
  return new TokenError(
    'BROWSER_UNAVAILABLE',
    `${why}. Install one (Debian/Ubuntu: apt-get install chromium), set VMARK_CHROMIUM to its path, ` +
      'or set VMARK_BROWSER_ENDPOINT to a running browser (a CDP or Playwright browser-server WebSocket).',
  );
}
