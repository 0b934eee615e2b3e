import path from 'node:path';
import { coreFolder, floorViolation } from './core-floors.js';

/*
 * `vmark/layers`: plugins → sdk ← core, and core in floors (core-floors.js).
 * Tests are held to the layer they sit in; cross-layer tests live in test/.
 */

const ROOT = path.resolve(import.meta.dirname, '..');

/** Where a repository path sits: core (with its floor folder), a plugin, the SDK, its test kit, or elsewhere. */
function placeOf(repoPath) {
  const parts = repoPath.split('/');
  if (parts[0] === 'core') return { layer: 'core', folder: coreFolder(parts.slice(1).join('/')) };
  if (parts[0] === 'plugins' && parts.length > 2) return { layer: 'plugin', name: parts[1] };
  if (parts[0] === 'sdk') return { layer: parts[1] === 'testing' ? 'testkit' : 'sdk' };
  return { layer: 'free' };
}

/** Where an import specifier leads, seen from the file at `fromPath`; `null` for npm packages. */
function targetOf(specifier, fromPath) {
  if (specifier.startsWith('.')) {
    const target = path
      .relative(ROOT, path.resolve(path.dirname(fromPath), specifier))
      .split(path.sep)
      .join('/');
    return { ...placeOf(target), publicEntry: false };
  }
  if (specifier === '@vmark/core' || specifier.startsWith('@vmark/core/')) {
    return { layer: 'core', folder: null, publicEntry: specifier === '@vmark/core' };
  }
  if (specifier === '@vmark/sdk/testing') return { layer: 'testkit' };
  if (specifier === '@vmark/sdk' || specifier.startsWith('@vmark/sdk/')) return { layer: 'sdk' };
  if (specifier.startsWith('@vmark/plugin-'))
    return { layer: 'plugin', name: specifier.slice('@vmark/plugin-'.length) };
  return null;
}

const isTestFile = (repoPath) =>
  /\.test\.[cm]?[jt]s$/.test(repoPath) || /^plugins\/[^/]+\/test\//.test(repoPath);

/** Why the file at `from` may not import `to`, or `null`. */
function violation(from, to, testFile) {
  switch (from.layer) {
    case 'core':
      if (to.layer === 'plugin') return 'core knows no plugin; a test that needs one belongs in test/';
      // Core's tests may borrow the kit's temp folders and fakes; core's code may not.
      if (to.layer === 'testkit' && !testFile) return 'the test kit is for tests';
      if (to.layer === 'core' && !to.publicEntry) return floorViolation(from.folder, to.folder);
      return null;
    case 'plugin':
      if (to.layer === 'core') return 'a plugin reaches the host only through @vmark/sdk';
      if (to.layer === 'plugin' && to.name !== from.name)
        return `a plugin does not import another plugin (${to.name})`;
      if (to.layer === 'testkit' && !testFile) return '@vmark/sdk/testing is for tests';
      return null;
    case 'sdk':
      if (to.layer === 'core' || to.layer === 'plugin') return 'the SDK depends on neither core nor plugins';
      if (to.layer === 'testkit') return 'the SDK does not depend on its test kit';
      return null;
    case 'testkit':
      if (to.layer === 'plugin') return 'the test kit knows no plugin';
      if (to.layer === 'core' && !to.publicEntry)
        return 'the test kit uses only @vmark/core, not core internals';
      return null;
    default:
      return null;
  }
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'plugins → sdk ← core, core in floors (docs/architecture.md)' },
    schema: [],
    messages: { layer: '{{why}} (import of "{{specifier}}")' },
  },
  create(context) {
    const fromPath = context.filename;
    const repoPath = path.relative(ROOT, fromPath).split(path.sep).join('/');
    const from = placeOf(repoPath);
    if (from.layer === 'free') return {};
    const testFile = isTestFile(repoPath);
    const check = (node) => {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const to = targetOf(node.value, fromPath);
      const why = to && violation(from, to, testFile);
      if (why) context.report({ node, messageId: 'layer', data: { why, specifier: node.value } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) =>
        check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
  },
};

export default { rules: { layers: layersRule } };
