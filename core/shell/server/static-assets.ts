import { createHash } from 'node:crypto';
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

/** Where index.html takes the modules to fetch ahead: before its own script, so they are asked for first. */
const PRELOADS_PLACEHOLDER = '<!-- vmark:preloads -->';

export interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

/** The page's import map (ADR 35): the one inline script it has, admitted by its hash. */
const IMPORT_MAP = /<script type="importmap">([^<]*)<\/script>/;

/** An import map's URL of a shared module: `/assets/<name>?token=…`. */
const MAPPED_ASSET = /^\/assets\/([a-z0-9][a-z0-9.-]*)\?/i;

/** A plugin module's URL path as manifests allow it (`/plugins/<id>/ui/….js`): nothing to escape in HTML. */
const PLAIN_MODULE_PATH = /^\/plugins\/[a-z0-9-]+\/ui\/[A-Za-z0-9_./-]+\.js$/;

/**
 * The renderer's built files (index.html, its script and styles, and the shared modules its
 * import map names), read once at start: they never change while the host runs.
 */
export class StaticAssets {
  private constructor(
    private readonly files: ReadonlyMap<string, Asset>,
    /** index.html as text, and the token as its URLs carry it. */
    private readonly html: string,
    private readonly urlToken: string,
    /** The CSP sources of the page's inline scripts: its import map's `'sha256-…'`, if it has one. */
    readonly scriptHashes: readonly string[],
  ) {}

  static async load(folder: string, token: string): Promise<StaticAssets> {
    const read = (name: string) =>
      readFile(path.join(folder, name)).catch(() => {
        throw new DomainError(
          'INTERNAL',
          `The editor's files are missing from ${folder} (${name}); run npm run build first`,
        );
      });
    const files = new Map<string, Asset>();
    const urlToken = encodeURIComponent(token);
    const page = (await read('index.html')).toString('utf8').replace(TOKEN_PLACEHOLDER, urlToken);
    const importMap = IMPORT_MAP.exec(page)?.[1];
    for (const name of ['renderer.js', 'renderer.css', ...sharedModuleNames(importMap)]) {
      files.set(name, {
        body: await read(name),
        type: TYPES[path.extname(name)] ?? 'application/octet-stream',
      });
    }
    const hashes =
      importMap === undefined ? [] : [`'sha256-${createHash('sha256').update(importMap).digest('base64')}'`];
    return new StaticAssets(files, page, urlToken, hashes);
  }

  /**
   * index.html, asking the browser to fetch `modulePaths` (the plugin modules the page will import
   * first: its tabs' kind views) along with its own script. The page imports a view only once
   * its socket has listed them; fetched ahead, the view is ready by then (ADR 99).
   */
  page(modulePaths: readonly string[] = []): Asset {
    const links = modulePaths
      .filter((modulePath) => PLAIN_MODULE_PATH.test(modulePath))
      .map((modulePath) => `<link rel="modulepreload" href="${modulePath}?token=${this.urlToken}" />`)
      .join('');
    return { body: Buffer.from(this.html.replace(PRELOADS_PLACEHOLDER, links)), type: TYPES['.html']! };
  }

  /** The built file at `/assets/<name>`. */
  get(pathname: string): Asset | undefined {
    const name = pathname.startsWith('/assets/') ? pathname.slice('/assets/'.length) : '';
    return ASSET_NAME.test(name) ? this.files.get(name) : undefined;
  }
}

/** The asset names an import map's URLs point at. */
function sharedModuleNames(importMap: string | undefined): string[] {
  if (importMap === undefined) return [];
  const { imports } = JSON.parse(importMap) as { imports: Record<string, string> };
  return Object.values(imports).flatMap((url) => {
    const name = MAPPED_ASSET.exec(url)?.[1];
    return name === undefined ? [] : [name];
  });
}
