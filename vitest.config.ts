import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * The end-to-end files that start neither Chromium nor a browser tab: they drive the built CLI
 * (hosts, MCP clients, the file system) and run two at a time, like the unit files, after them.
 */
export const DRIVE_THE_CLI = [
  'test/architecture/**/*.test.ts',
  'test/host/**/*.test.ts',
  'test/plugins/**/*.test.ts',
  'test/approval-attacks.e2e.test.ts',
  'test/browser-workflow-file.e2e.test.ts',
  'test/cli-setup.e2e.test.ts',
  'test/cli-usage.e2e.test.ts',
  'test/coherence*.test.ts',
  'test/document-*.e2e.test.ts',
  'test/host-start.e2e.test.ts',
  'test/inspector-smoke.e2e.test.ts',
  'test/mcp-conformance.e2e.test.ts',
  'test/mcp-http.e2e.test.ts',
  'test/mcp-logging.e2e.test.ts',
  'test/mcp-stdio.e2e.test.ts',
  'test/plugin-packages.test.ts',
  'test/protected-folders.e2e.test.ts',
  'test/special-files.e2e.test.ts',
  'test/user-plugin.e2e.test.ts',
  'test/workflow.e2e.test.ts',
  'test/workspace.e2e.test.ts',
];

/**
 * The other end-to-end files drive Chromium (the editor's page, a browser tab, an export), kill
 * a host at a chosen moment or race writers (no-lost-write): one at a time, after the rest, since two of them side by
 * side on a small machine push the browser past the product's own time limits (a screenshot's
 * 1.5 s, for one). So do the browser plugin's own tests, last.
 */
const END_TO_END = ['test/**/*.test.ts'];
const DRIVE_A_BROWSER_IN_PROCESS = ['plugins/browser/test/**/*.test.ts', 'core/cli/app-window.test.ts'];

/**
 * Each file in a worker of its own module graph paid ~2 s of imports (Playwright, the MCP SDK,
 * the host's sources); the end-to-end files keep their state in the processes they start, so one
 * worker runs them one after another on one graph (ADR 83).
 */
const SHARE_ONE_MODULE_GRAPH = { isolate: false } as const;

// Tests run against the TypeScript sources of the workspace packages; the
// end-to-end tests in test/ drive the built CLI instead.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@vmark\/sdk\/testing$/, replacement: here('./sdk/testing/index.ts') },
      { find: /^@vmark\/sdk\/markdown$/, replacement: here('./sdk/src/markdown.ts') },
      { find: /^@vmark\/sdk\/reader$/, replacement: here('./sdk/src/reader/index.ts') },
      { find: /^@vmark\/sdk$/, replacement: here('./sdk/src/index.ts') },
      { find: /^@vmark\/core$/, replacement: here('./core/index.ts') },
    ],
  },
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A poll passes the moment its condition holds; a longer limit only spares a loaded machine.
    expect: { poll: { timeout: 5_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**', ...END_TO_END, ...DRIVE_A_BROWSER_IN_PROCESS],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'cli',
          include: DRIVE_THE_CLI,
          maxWorkers: 2,
          ...SHARE_ONE_MODULE_GRAPH,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'chromium',
          include: END_TO_END,
          exclude: ['**/node_modules/**', '**/dist/**', ...DRIVE_THE_CLI],
          maxWorkers: 1,
          ...SHARE_ONE_MODULE_GRAPH,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          // The browser plugin's own tests load its engine in process and set its environment
          // switches at module level: each keeps a fresh module graph.
          name: 'browser-in-process',
          include: DRIVE_A_BROWSER_IN_PROCESS,
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
