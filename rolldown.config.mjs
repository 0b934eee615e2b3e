import { readFile } from 'node:fs/promises';
import { defineConfig } from 'rolldown';

/**
 * The CLI as one bundle of the host's own code and its private dependencies
 * (inversify alone is ~250 files, a third of a cold start). The SDK, zod and the
 * MCP SDK stay external: plugins import them too, and they must share one copy.
 * The output sits at the same depth as core/dist/cli/, so its relative URLs hold.
 */
const cli = defineConfig({
  input: {
    main: 'core/dist/cli/main.js',
    'sdk-resolve-hook': 'core/dist/plugins/sdk-resolve-hook.js',
  },
  platform: 'node',
  external: [/^@vmark\/sdk/, /^zod/, /^@modelcontextprotocol\/sdk/, /^node:/],
  output: { dir: 'core/dist/bundle', format: 'esm', sourcemap: true, cleanDir: true },
});

/** Copies the renderer's page and styles beside its script, as the UI server expects them. */
const rendererStatics = {
  name: 'vmark-renderer-statics',
  async generateBundle() {
    for (const fileName of ['index.html', 'renderer.css']) {
      const source = await readFile(new URL(`core/shell/renderer/${fileName}`, import.meta.url), 'utf8');
      this.emitFile({ type: 'asset', fileName, source });
    }
  },
};

/** The editor's browser code (CodeMirror included) as one script, straight from its TypeScript. */
const renderer = defineConfig({
  input: { renderer: 'core/shell/renderer/main.ts' },
  platform: 'browser',
  tsconfig: 'core/shell/renderer/tsconfig.json',
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  plugins: [rendererStatics],
  output: { dir: 'core/dist/renderer', format: 'esm', sourcemap: true, minify: true, cleanDir: true },
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
 * The browser halves of built-in plugins' panels (ADR 20): each a self-contained ES module in its
 * plugin's ui/dist/ (ignored by git, shipped in the package), which the UI server serves from there.
 */
const pluginPanels = defineConfig({
  input: { breakdown: 'plugins/coherence/ui/breakdown.ts' },
  platform: 'browser',
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  output: { dir: 'plugins/coherence/ui/dist', format: 'esm', minify: true, cleanDir: true },
});

export default [cli, renderer, electronMain, pluginPanels];
