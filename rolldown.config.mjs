import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'rolldown';
import { lezerMarkdownReuse } from './scripts/lezer-markdown-reuse.mjs';

/**
 * The MCP SDK's server and client import its ajv validator, which builds ajv and its formats as
 * they load (~0.1 s of CPU); in the bundle they get core's LazyAjvValidator instead, which requires
 * that same validator on the first check (an elicitation's answer; ADR 88). The server is handed
 * one anyway (mcp-session.ts): this only drops the import.
 */
const lazyAjv = {
  name: 'vmark-lazy-ajv',
  resolveId(source, importer) {
    const sdk = /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]/;
    return source === '../validation/ajv-provider.js' && sdk.test(importer ?? '') ? '\0lazy-ajv' : null;
  },
  load(id) {
    if (id !== '\0lazy-ajv') return null;
    const lazy = fileURLToPath(new URL('core/dist/mcp/lazy-ajv-validator.js', import.meta.url));
    return `export { LazyAjvValidator as AjvJsonSchemaValidator } from ${JSON.stringify(lazy)};`;
  },
};

/**
 * The CLI as one bundle of the host's own code and its private dependencies
 * (inversify alone is ~250 files, a third of a cold start; the MCP SDK with zod-to-json-schema
 * ~80, ADR 88). The SDK and zod stay external: plugins import them too, and they must share one
 * copy. The output sits at the same depth as core/dist/cli/, so its relative URLs hold.
 */
const cli = defineConfig({
  input: {
    main: 'core/dist/cli/main.js',
    'sdk-resolve-hook': 'core/dist/plugins/sdk-resolve-hook.js',
  },
  platform: 'node',
  external: [/^@vmark\/sdk/, /^zod($|\/)/, /^node:/],
  plugins: [lazyAjv],
  output: { dir: 'core/dist/bundle', format: 'esm', sourcemap: true, cleanDir: true },
});

/**
 * The modules that must be one copy in the editor page (ADR 35): two copies of @codemirror/state
 * break every extension that crosses between them, and a kind view (a plugin's browser module)
 * adds extensions to core's editor. Each is built once, on its own, into the renderer's folder;
 * the page's import map names it for its bare name; the renderer and every view module leave
 * these names external. A plugin's view module may import any of them, and must bundle the rest.
 */
export const SHARED_MODULES = [
  '@codemirror/state',
  '@codemirror/view',
  '@codemirror/language',
  '@codemirror/commands',
  '@codemirror/autocomplete',
  '@codemirror/search',
  '@lezer/common',
  '@lezer/highlight',
  'style-mod',
];

/** `@codemirror/state` → `codemirror-state.js`: a flat asset name, as the UI server serves them. */
const sharedFileName = (name) => `${name.replace(/^@/, '').replace('/', '-')}.js`;

/** Each shared module as one file that imports the others by their bare names. */
const sharedModules = SHARED_MODULES.map((name) =>
  defineConfig({
    input: { [sharedFileName(name).slice(0, -'.js'.length)]: name },
    platform: 'browser',
    external: SHARED_MODULES.filter((other) => other !== name),
    output: { dir: 'core/dist/renderer', format: 'esm', minify: true },
  }),
);

/**
 * The import map of the editor page: every shared module by its bare name. Its URLs carry the
 * token placeholder the UI server fills in; the server admits the map by its hash in the CSP.
 */
const importMap = () =>
  JSON.stringify({
    imports: Object.fromEntries(
      SHARED_MODULES.map((name) => [name, `/assets/${sharedFileName(name)}?token=__VMARK_TOKEN__`]),
    ),
  });

/** Copies the renderer's page (with its import map) and styles beside its script, as the UI server expects them. */
const rendererStatics = {
  name: 'vmark-renderer-statics',
  async generateBundle() {
    for (const fileName of ['index.html', 'renderer.css']) {
      const text = await readFile(new URL(`core/shell/renderer/${fileName}`, import.meta.url), 'utf8');
      const source = text.replace(
        '<!-- vmark:importmap -->',
        `<script type="importmap">${importMap()}</script>`,
      );
      this.emitFile({ type: 'asset', fileName, source });
    }
  },
};

/** The editor's browser code as one script, straight from its TypeScript; CodeMirror from the shared modules. */
const renderer = defineConfig({
  input: { renderer: 'core/shell/renderer/main.ts' },
  platform: 'browser',
  tsconfig: 'core/shell/renderer/tsconfig.json',
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  external: SHARED_MODULES,
  plugins: [rendererStatics],
  // Not cleaned: the shared modules are written to the same folder at the same time (fixed names all).
  output: { dir: 'core/dist/renderer', format: 'esm', sourcemap: true, minify: true },
});

/**
 * The Electron shell's main process (its own tsconfig: it alone needs electron's types). The host stays
 * external and is loaded from core's tsc output: the output sits at core/dist/shell/electron/, where the
 * source's relative import of ../editor-host/ names core/dist/shell/editor-host/.
 */
const electronMain = defineConfig({
  input: { main: 'core/shell/electron/main.ts' },
  platform: 'node',
  tsconfig: 'core/shell/electron/tsconfig.json',
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  external: [/^electron$/, /^node:/, /\/editor-host\/[\w-]+\.js$/],
  output: { dir: 'core/dist/shell/electron', format: 'esm', sourcemap: true, cleanDir: true },
});

/**
 * The browser halves of built-in plugins' panels and kind views (ADR 20, 35): each a self-contained
 * ES module in its plugin's ui/dist/ (ignored by git, shipped in the package), which the UI server
 * serves from there. The shared modules stay external: the page's import map provides them.
 * Wherever one bundles @lezer/markdown, its incremental parse reuses more (ADR 109).
 */
const pluginUi = (plugin, input, cleanDir = true) =>
  defineConfig({
    input,
    platform: 'browser',
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    external: SHARED_MODULES,
    plugins: [lezerMarkdownReuse],
    output: { dir: `plugins/${plugin}/ui/dist`, format: 'esm', minify: true, cleanDir },
  });

const pluginUis = [
  pluginUi('browser', {
    'workflow-file-view': 'plugins/browser/ui/workflow-file-view.ts',
    'browser-tab-view': 'plugins/browser/ui/browser-tab-view.ts',
    'new-tab-panel': 'plugins/browser/ui/new-tab-panel.ts',
  }),
  pluginUi('coherence', { breakdown: 'plugins/coherence/ui/breakdown.ts' }),
  // Not cleaned: Live mode's lazy modules are written to the same folder at the same time (below).
  pluginUi(
    'document',
    {
      'markdown-view': 'plugins/document/ui/markdown-view.ts',
      'text-view': 'plugins/document/ui/text-view.ts',
      'links-panel': 'plugins/document/ui/links-panel.ts',
    },
    false,
  ),
  pluginUi('workflow', { 'workflow-view': 'plugins/workflow/ui/workflow-view.ts' }),
];

/**
 * KaTeX's style sheet as a module (`virtual:katex-css`), its fonts' URLs left as
 * `__KATEX_FONTS__<file>.woff2` for the page to fill in with the token (woff2 alone: every
 * browser the page runs in reads it), and the woff2 files themselves emitted into katex-fonts/.
 */
const katexStyles = {
  name: 'vmark-katex-styles',
  resolveId: (id) => (id === 'virtual:katex-css' ? '\0katex-css' : null),
  async load(id) {
    if (id !== '\0katex-css') return null;
    const dist = new URL('node_modules/katex/dist/', import.meta.url);
    const css = (await readFile(new URL('katex.min.css', dist), 'utf8')).replace(
      /src:url\(fonts\/([\w-]+\.woff2)\) format\("woff2"\)[^;}]*/g,
      'src:url(__KATEX_FONTS__$1) format("woff2")',
    );
    if (!css.includes('__KATEX_FONTS__') || /url\(fonts\//.test(css))
      throw new Error('KaTeX style sheet: font URLs not as expected');
    for (const file of await readdir(new URL('fonts/', dist))) {
      if (!file.endsWith('.woff2')) continue;
      const source = await readFile(new URL(`fonts/${file}`, dist));
      this.emitFile({ type: 'asset', fileName: `katex-fonts/${file}`, source });
    }
    return `export default ${JSON.stringify(css)};`;
  },
};

/**
 * The large parts of the Markdown view's Live mode, each one self-contained module loaded the
 * first time a note needs it (ADR 73): a relative import from the view would lose the page token,
 * so nothing is split into chunks; the view makes each URL itself (live/lazy.ts).
 */
const lazyDocumentUi = (name, input, plugins = []) =>
  defineConfig({
    input: { [name]: input },
    platform: 'browser',
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    external: SHARED_MODULES,
    plugins: [lezerMarkdownReuse, ...plugins],
    output: { dir: 'plugins/document/ui/dist', format: 'esm', minify: true, codeSplitting: false },
  });

pluginUis.push(
  lazyDocumentUi('rich-math', 'plugins/document/ui/live/math-render.ts', [katexStyles]),
  lazyDocumentUi('rich-mermaid', 'plugins/document/ui/live/mermaid-render.ts'),
  lazyDocumentUi('code-languages', 'plugins/document/ui/live/code-languages.ts'),
);

/**
 * The host half of each large built-in plugin as one module (ADR 88), which its manifest's `main`
 * names: every host start imports all four, and Node 20 pays per file it resolves, reads and links
 * (the browser plugin alone is ~110 files of tsc output), about half of their import time. Every
 * package stays external, so the plugin shares the host's copy of the SDK and of zod; the
 * plugin's own lazy imports (a module loaded on first use) become chunks beside the bundle.
 */
const pluginHost = (plugin) =>
  defineConfig({
    input: { index: `plugins/${plugin}/dist/index.js` },
    platform: 'node',
    external: [/^[^./]/],
    output: { dir: `plugins/${plugin}/dist/bundle`, format: 'esm', sourcemap: true, cleanDir: true },
  });

const pluginHosts = ['document', 'workflow', 'coherence', 'browser'].map(pluginHost);

export default [cli, renderer, ...sharedModules, electronMain, ...pluginUis, ...pluginHosts];
