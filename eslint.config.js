import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import vmarkLayers from './eslint/layers-rule.js';

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
    // plugins → sdk ← core, and core in floors: eslint/layers-rule.js, docs/architecture.md.
    files: ['core/**/*.ts', 'plugins/**/*.ts', 'sdk/**/*.ts'],
    plugins: { vmark: vmarkLayers },
    rules: { 'vmark/layers': 'error' },
  },
);
