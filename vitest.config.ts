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
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
