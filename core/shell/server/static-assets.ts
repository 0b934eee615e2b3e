import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DomainError } from '@vmark/sdk';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Names the renderer's build writes: one flat folder, no paths, so no way out of it. */
const ASSET_NAME = /^[a-z0-9][a-z0-9.-]*$/i;

/** Placeholder in index.html for the token its asset URLs must carry. */
const TOKEN_PLACEHOLDER = /__VMARK_TOKEN__/g;

export interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

/**
 * The renderer's built files (index.html, its script and styles), read once at
 * start: they never change while the host runs.
 */
export class StaticAssets {
  private constructor(private readonly files: ReadonlyMap<string, Asset>) {}

  static async load(folder: string, token: string): Promise<StaticAssets> {
    const files = new Map<string, Asset>();
    for (const name of ['index.html', 'renderer.js', 'renderer.css']) {
      const bytes = await readFile(path.join(folder, name)).catch(() => {
        throw new DomainError(
          'INTERNAL',
          `The editor's files are missing from ${folder} (${name}); run npm run build first`,
        );
      });
      const body =
        name === 'index.html'
          ? Buffer.from(bytes.toString('utf8').replace(TOKEN_PLACEHOLDER, encodeURIComponent(token)))
          : bytes;
      files.set(name, { body, type: TYPES[path.extname(name)] ?? 'application/octet-stream' });
    }
    return new StaticAssets(files);
  }

  /** The asset at a URL path: `/` is index.html, `/assets/<name>` a built file. */
  get(pathname: string): Asset | undefined {
    if (pathname === '/') return this.files.get('index.html');
    const name = pathname.startsWith('/assets/') ? pathname.slice('/assets/'.length) : '';
    return ASSET_NAME.test(name) && name !== 'index.html' ? this.files.get(name) : undefined;
  }
}
