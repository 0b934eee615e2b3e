import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Vitest's asymmetric matchers (expect.any, expect.stringMatching) are typed `any`.
    files: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    // Plugins reach the host only through the SDK.
    files: ['plugins/**/*.ts'],
    ignores: ['plugins/**/*.test.ts', 'plugins/*/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@vmark/core', '@vmark/core/*', '**/core/**', '@vmark/sdk/testing'] },
      ],
    },
  },
  {
    // The host knows nothing of plugins. (A relative import of plugins/ from core/ also fails to
    // compile: it lies outside core's rootDir.)
    files: ['core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@vmark/plugin-*'] }] },
  },
);
