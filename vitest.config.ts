import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * The files that drive Chromium or the built CLI: they run one at a time, after the rest, since
 * two of them side by side on a small machine push the browser past the product's own time
 * limits (a screenshot's 1.5 s, for one). Everything else runs two files at a time.
 */
const DRIVES_A_BROWSER_OR_THE_CLI = [
  'test/**/*.test.ts',
  'plugins/browser/test/**/*.test.ts',
  'core/cli/app-window.test.ts',
];

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
          exclude: ['**/node_modules/**', '**/dist/**', ...DRIVES_A_BROWSER_OR_THE_CLI],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser-and-cli',
          include: DRIVES_A_BROWSER_OR_THE_CLI,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
