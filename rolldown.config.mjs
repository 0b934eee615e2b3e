import { defineConfig } from 'rolldown';

/**
 * The CLI as one bundle of the host's own code and its private dependencies
 * (inversify alone is ~250 files, a third of a cold start). The SDK, zod and the
 * MCP SDK stay external: plugins import them too, and they must share one copy.
 * The output sits at the same depth as core/dist/cli/, so its relative URLs hold.
 */
export default defineConfig({
  input: {
    main: 'core/dist/cli/main.js',
    'sdk-resolve-hook': 'core/dist/plugins/sdk-resolve-hook.js',
  },
  platform: 'node',
  external: [/^@vmark\/sdk/, /^zod/, /^@modelcontextprotocol\/sdk/, /^node:/],
  output: { dir: 'core/dist/bundle', format: 'esm', sourcemap: true, cleanDir: true },
});
