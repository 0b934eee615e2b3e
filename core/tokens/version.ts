import { readFileSync } from 'node:fs';

/**
 * The vmark version is @vmark/core's. Found by walking up from this module, which
 * runs both from source (tests) and from `dist/`.
 */
function readVersion(): string {
  for (let dir = new URL('./', import.meta.url); dir.pathname !== '/'; dir = new URL('../', dir)) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === '@vmark/core' && pkg.version) return pkg.version;
    } catch {
      // No package.json here: keep walking up.
    }
  }
  throw new Error('@vmark/core package.json not found');
}

export const VMARK_VERSION = readVersion();
