import js from '@eslint/js';
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
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
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
    // The host knows nothing of plugins.
    files: ['core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/plugins/**', '@vmark/plugin-*'] }] },
  },
);
