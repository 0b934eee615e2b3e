import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

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
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    // Vitest's default is one worker less than the cores: on CI's 2 cores, one file at a time. Most of
    // the time goes to end-to-end files that wait on the built CLI and Chromium, so two files at once
    // keep both cores busy (every test makes its own temp folders, homes and ports).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
