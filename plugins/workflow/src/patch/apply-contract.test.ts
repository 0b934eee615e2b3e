/**
 * The batch contract (atomicity, errors, no-ops, descriptions) and the layouts the main
 * fixtures do not cover: CRLF line endings, `"on"` / `true` trigger keys, flow mappings,
 * block `needs` lists and a file without a final newline.
 */
import { describe, expect, it } from 'vitest';
import { applyPatches } from './apply-patches.js';
import { describePatches } from './describe-patches.js';
import { diffLines } from './line-diff.js';
import { PatchError } from './patch-error.js';
import type { IRPatch } from './patch-schema.js';

const lines = (chunk: readonly string[]): string[] => chunk.map((line) => line.replace(/\r?\n$/, ''));

function expectEdit(
  before: string,
  patches: IRPatch[],
  expected: string,
  changed: { removed: string[]; added: string[] },
): void {
  const result = applyPatches(before, patches);
  expect(result.warnings).toEqual([]);
  expect(result.text).toBe(expected);
  const diff = diffLines(before, result.text);
  expect({ removed: lines(diff.removed), added: lines(diff.added) }).toEqual(changed);
}

function thrown(run: () => unknown): PatchError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PatchError);
    return error as PatchError;
  }
  throw new Error('expected a PatchError');
}

const SMALL = `name: small   # name
on:
  push:
    branches: [main]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: make
`;

describe('the batch', () => {
  it('is atomic: a bad patch anywhere fails the whole batch with its index', () => {
    const patches = [
      { kind: 'workflow.set', path: 'name', value: 'changed' },
      { kind: 'job.set', jobId: 'build', path: 'timeout-minutes', value: 5 },
      { kind: 'step.set', jobId: 'build', stepIndex: -1, path: 'run', value: 'x' },
    ] as IRPatch[];
    const error = thrown(() => applyPatches(SMALL, patches));
    expect(error.index).toBe(2);
    expect(error.message).toBe('patches[2].stepIndex must be a non-negative integer');
    // Without the bad patch the first two do apply: it was the batch that was refused.
    expect(applyPatches(SMALL, patches.slice(0, 2)).changed).toBe(true);
  });

  it('refuses a document that does not parse, with yaml’s reason and no index', () => {
    const error = thrown(() =>
      applyPatches('name: [unclosed\non: push\n', [{ kind: 'workflow.set', path: 'name', value: 'x' }]),
    );
    expect(error.index).toBeUndefined();
    expect(error.message).toMatch(/^The workflow YAML does not parse: /);
    const duplicate = thrown(() => applyPatches('name: a\nname: b\n', []));
    expect(duplicate.message).toMatch(/^The workflow YAML does not parse: Map keys must be unique/);
  });

  it('reports a no-op batch as unchanged, byte for byte', () => {
    const result = applyPatches(SMALL, [
      { kind: 'workflow.set', path: 'name', value: 'small' },
      { kind: 'trigger.setFilters', event: 'push', filter: 'branches', value: ['main'] },
      { kind: 'job.set', jobId: 'build', path: 'runs-on', value: 'ubuntu-latest' },
    ]);
    expect(result).toEqual({
      text: SMALL,
      changed: false,
      warnings: [],
      description: 'Apply 3 patches (workflow.set, trigger.setFilters, job.set)',
    });
    expect(applyPatches(SMALL, [])).toEqual({
      text: SMALL,
      changed: false,
      warnings: [],
      description: 'Apply 0 patches',
    });
  });

  it('keeps going past a patch that changed nothing, and says which one', () => {
    const result = applyPatches(SMALL, [
      { kind: 'job.set', jobId: 'deploy', path: 'runs-on', value: 'x' },
      { kind: 'workflow.set', path: 'name', value: 'renamed' },
    ]);
    expect(result.text).toBe(SMALL.replace('name: small', 'name: renamed'));
    expect(result.warnings).toEqual(['job "deploy" does not exist; patch 0 changed nothing']);
  });

  it('warns on a file without jobs or top-level mapping', () => {
    expect(applyPatches('name: x\n', [{ kind: 'needs.add', jobId: 'a', ref: 'b' }]).warnings).toEqual([
      'the workflow has no jobs; patch 0 changed nothing',
    ]);
    expect(
      applyPatches('# nothing yet\n', [{ kind: 'workflow.set', path: 'name', value: 'x' }]).warnings,
    ).toEqual(['the document has no top-level mapping; patch 0 changed nothing']);
  });
});

describe('idempotence', () => {
  const patches: IRPatch[] = [
    { kind: 'workflow.set', path: 'env.MODE', value: 'ci' },
    { kind: 'workflow.set', path: 'on.push.branches', value: ['main', 'dev'] },
    { kind: 'job.set', jobId: 'build', path: 'runs-on', value: ['self-hosted', 'linux'] },
    { kind: 'step.set', jobId: 'build', stepIndex: 0, path: 'run', value: 'make\nmake check\n' },
    { kind: 'with.set', jobId: 'build', stepIndex: 0, key: 'token', value: '${{ secrets.TOKEN }}' },
    { kind: 'with.remove', jobId: 'build', stepIndex: 0, key: 'token' },
    { kind: 'needs.add', jobId: 'build', ref: 'setup' },
    { kind: 'needs.remove', jobId: 'build', ref: 'setup' },
    { kind: 'trigger.setFilters', event: 'push', filter: 'tags', value: ['v*'] },
    { kind: 'trigger.setFilters', event: 'push', filter: 'branches', value: [] },
    { kind: 'job.create', jobId: 'lint' },
    { kind: 'job.delete', jobId: 'build' },
    { kind: 'workflow.permissions.set', value: { contents: 'read' } },
    { kind: 'workflow.concurrency.set', value: { group: 'ci', cancelInProgress: true } },
  ];

  it.each(patches.map((patch) => [patch.kind, patch] as const))(
    '%s applied twice equals once',
    (_kind, patch) => {
      const once = applyPatches(SMALL, [patch]).text;
      expect(applyPatches(once, [patch]).text).toBe(once);
      expect(applyPatches(SMALL, [patch, patch]).text).toBe(once);
    },
  );
});

describe('describePatches', () => {
  it('words one patch as the original did, and the internal kinds in kind', () => {
    const one = (patch: IRPatch): string => describePatches([patch]);
    expect(one({ kind: 'workflow.set', path: 'env.NODE', value: '20' })).toBe('Set workflow env.NODE');
    expect(one({ kind: 'job.set', jobId: 'build', path: 'runs-on', value: 'x' })).toBe('Set build.runs-on');
    expect(one({ kind: 'step.set', jobId: 'build', stepIndex: 2, path: 'run', value: 'x' })).toBe(
      'Set build.steps[2].run',
    );
    expect(one({ kind: 'with.set', jobId: 'build', stepIndex: 1, key: 'cache', value: 'npm' })).toBe(
      'Set build.steps[1].with.cache',
    );
    expect(one({ kind: 'with.remove', jobId: 'build', stepIndex: 1, key: 'cache' })).toBe(
      'Remove build.steps[1].with.cache',
    );
    expect(one({ kind: 'needs.add', jobId: 'deploy', ref: 'build' })).toBe('Add build to deploy.needs');
    expect(one({ kind: 'needs.remove', jobId: 'deploy', ref: 'build' })).toBe(
      'Remove build from deploy.needs',
    );
    expect(one({ kind: 'trigger.setFilters', event: 'push', filter: 'tags', value: [] })).toBe(
      'Set on.push.tags',
    );
    expect(one({ kind: 'job.create', jobId: 'lint' })).toBe('Create job lint');
    expect(one({ kind: 'step.move', jobId: 'build', fromIndex: 2, toIndex: 0 })).toBe(
      'Move build.steps[2] to 0',
    );
    expect(one({ kind: 'workflow.concurrency.set', value: null })).toBe('Remove workflow concurrency');
  });
});

describe('CRLF files', () => {
  const crlf = (...rows: string[]): string => rows.map((row) => `${row}\r\n`).join('');
  const SOURCE = crlf(
    '# a Windows checkout',
    'name: CRLF   # name',
    'on:',
    '  push:',
    '    branches: [ main ]',
    'jobs:',
    '  build:',
    '    runs-on: windows-latest',
    '    steps:',
    '      - uses: actions/checkout@v4',
    '      - run: |',
    '          dir',
    '          echo ok',
  );

  it('get CRLF in every line they gain', () => {
    const expected = crlf(
      '# a Windows checkout',
      'name: CRLF   # name',
      'on:',
      '  push:',
      '    branches: [ main, dev ]',
      'jobs:',
      '  build:',
      '    runs-on: windows-latest',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '        with:',
      '          fetch-depth: 0',
      '      - run: |',
      '          dir',
      '          echo done',
      '      - name: Lint',
      '        run: |-',
      '          npm ci',
      '          npm run lint',
      '    timeout-minutes: 10',
      '    needs: [setup]',
      'env:',
      '  CONFIG: release',
    );
    const result = applyPatches(SOURCE, [
      { kind: 'trigger.setFilters', event: 'push', filter: 'branches', value: ['main', 'dev'] },
      { kind: 'with.set', jobId: 'build', stepIndex: 0, key: 'fetch-depth', value: 0 },
      { kind: 'step.set', jobId: 'build', stepIndex: 1, path: 'run', value: 'dir\necho done\n' },
      { kind: 'step.insert', jobId: 'build', index: 2, step: { name: 'Lint', run: 'npm ci\nnpm run lint' } },
      { kind: 'job.set', jobId: 'build', path: 'timeout-minutes', value: 10 },
      { kind: 'needs.add', jobId: 'build', ref: 'setup' },
      { kind: 'workflow.set', path: 'env.CONFIG', value: 'release' },
    ]);
    expect(result.warnings).toEqual([]);
    expect(result.text).toBe(expected);
    expect(result.text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });
});

describe('the trigger key', () => {
  it('is found written as "on" or as true', () => {
    for (const key of ['"on"', "'on'", 'true']) {
      const before = `${key}:\n  push:\n    branches: [main]\njobs: {}\n`;
      expectEdit(
        before,
        [{ kind: 'trigger.setFilters', event: 'push', filter: 'branches', value: ['main', 'next'] }],
        before.replace('[main]', '[main, next]'),
        { removed: ['    branches: [main]'], added: ['    branches: [main, next]'] },
      );
    }
  });

  it('takes no filters in its scalar or list form', () => {
    for (const [form, shape] of [
      ['on: push', 'a scalar'],
      ['on: [push, pull_request]', 'a sequence'],
    ] as const) {
      const before = `${form}\njobs: {}\n`;
      const result = applyPatches(before, [
        { kind: 'trigger.setFilters', event: 'push', filter: 'branches', value: ['x'] },
      ]);
      expect(result.text).toBe(before);
      expect(result.warnings).toEqual([
        `on: is ${shape}, not a mapping of events (filters need the form on: {push: {branches: [...]}}); patch 0 changed nothing`,
      ]);
    }
  });
});

describe('other layouts', () => {
  it('edits flow mappings in flow form', () => {
    const before = 'jobs:\n  a:\n    steps:\n      - uses: x@v1\n        with: {k: v,  j: w}   # inputs\n';
    expectEdit(
      before,
      [
        { kind: 'with.set', jobId: 'a', stepIndex: 0, key: 'k', value: 'changed' },
        { kind: 'with.set', jobId: 'a', stepIndex: 0, key: 'n', value: 3 },
        { kind: 'with.remove', jobId: 'a', stepIndex: 0, key: 'j' },
      ],
      before.replace('{k: v,  j: w}', '{k: changed,  n: 3}'),
      {
        removed: ['        with: {k: v,  j: w}   # inputs'],
        added: ['        with: {k: changed,  n: 3}   # inputs'],
      },
    );
  });

  it('adds to and removes from a block needs list', () => {
    const before = 'jobs:\n  a:\n    needs:   # deps\n      - b   # first\n      - c\n    runs-on: x\n';
    expectEdit(
      before,
      [
        { kind: 'needs.add', jobId: 'a', ref: 'd' },
        { kind: 'needs.remove', jobId: 'a', ref: 'b' },
      ],
      'jobs:\n  a:\n    needs:   # deps\n      - c\n      - d\n    runs-on: x\n',
      { removed: ['      - b   # first'], added: ['      - d'] },
    );
    expectEdit(before, [{ kind: 'needs.add', jobId: 'a', ref: 'c' }], before, { removed: [], added: [] });
  });

  it('removes from a flow needs list, and the key with the last entry', () => {
    const before = 'jobs:\n  a:\n    needs: [ b, c ]   # deps\n    runs-on: x\n';
    expectEdit(
      before,
      [{ kind: 'needs.remove', jobId: 'a', ref: 'b' }],
      before.replace('[ b, c ]', '[ c ]'),
      {
        removed: ['    needs: [ b, c ]   # deps'],
        added: ['    needs: [ c ]   # deps'],
      },
    );
    expectEdit(
      before,
      [
        { kind: 'needs.remove', jobId: 'a', ref: 'c' },
        { kind: 'needs.remove', jobId: 'a', ref: 'b' },
      ],
      'jobs:\n  a:\n    runs-on: x\n',
      { removed: ['    needs: [ b, c ]   # deps'], added: [] },
    );
  });

  it('follows a four-space indentation and a wide dash gap', () => {
    const before = 'jobs:\n    build:\n        steps:\n        -   uses: a@v1\n        -   run: b\n';
    expectEdit(
      before,
      [
        { kind: 'with.set', jobId: 'build', stepIndex: 0, key: 'k', value: 'v' },
        { kind: 'step.insert', jobId: 'build', index: 1, step: { name: 'n', run: 'r' } },
        { kind: 'workflow.set', path: 'env.A', value: 'x' },
      ],
      'jobs:\n    build:\n        steps:\n        -   uses: a@v1\n            with:\n                k: v\n' +
        '        -   name: n\n            run: r\n        -   run: b\nenv:\n    A: x\n',
      {
        removed: [],
        added: [
          '            with:',
          '                k: v',
          '        -   name: n',
          '            run: r',
          'env:',
          '    A: x',
        ],
      },
    );
  });

  it('keeps a file without a final newline that way', () => {
    const before = 'name: x\njobs:\n  a:\n    runs-on: y';
    expectEdit(
      before,
      [{ kind: 'job.set', jobId: 'a', path: 'timeout-minutes', value: 9 }],
      `${before}\n    timeout-minutes: 9`,
      {
        removed: ['    runs-on: y'],
        added: ['    runs-on: y', '    timeout-minutes: 9'],
      },
    );
    expect(applyPatches(`${before}\n    timeout-minutes: 9`, [{ kind: 'job.delete', jobId: 'a' }]).text).toBe(
      'name: x\njobs: {}',
    );
  });

  it('does not let a block scalar at the end of a file change meaning', () => {
    // `|` at the end of a file without a line break holds "echo" with no newline; adding a
    // line after it needs a line break, so the header strips it: `|-`.
    const unterminated = 'jobs:\n  a:\n    run: |\n      echo';
    expectEdit(
      unterminated,
      [{ kind: 'job.set', jobId: 'a', path: 'timeout-minutes', value: 1 }],
      'jobs:\n  a:\n    run: |-\n      echo\n    timeout-minutes: 1',
      {
        removed: ['    run: |', '      echo'],
        added: ['    run: |-', '      echo', '    timeout-minutes: 1'],
      },
    );
    // A new block scalar never goes above a comment indented like its body (it would read
    // the comment as text), even when that comment is the file's last, unterminated line.
    const comment = 'jobs:\n  a:\n    b: 1\n      # deep';
    expectEdit(
      comment,
      [{ kind: 'job.set', jobId: 'a', path: 'run', value: 'x\ny\n' }],
      'jobs:\n  a:\n    b: 1\n      # deep\n    run: |\n      x\n      y\n',
      { removed: ['      # deep'], added: ['      # deep', '    run: |', '      x', '      y'] },
    );
  });

  it('creates the trigger filters’ parents through workflow.set, which does create intermediates', () => {
    const before = 'name: x\njobs: {}\n';
    expectEdit(
      before,
      [{ kind: 'workflow.set', path: 'on.push.branches', value: ['main'] }],
      'name: x\njobs: {}\non:\n  push:\n    branches: [main]\n',
      { removed: [], added: ['on:', '  push:', '    branches: [main]'] },
    );
  });

  it('writes multi-line strings as block literals and strings that need it quoted', () => {
    const before = 'jobs:\n  a:\n    steps:\n      - run: make\n';
    expectEdit(
      before,
      [
        { kind: 'step.set', jobId: 'a', stepIndex: 0, path: 'run', value: 'make\nmake install\n' },
        { kind: 'step.set', jobId: 'a', stepIndex: 0, path: 'if', value: "github.ref == 'refs/heads/main'" },
        { kind: 'step.set', jobId: 'a', stepIndex: 0, path: 'name', value: 'Build: all' },
        { kind: 'step.set', jobId: 'a', stepIndex: 0, path: 'timeout-minutes', value: '5' },
      ],
      'jobs:\n  a:\n    steps:\n      - run: |\n          make\n          make install\n' +
        "        if: github.ref == 'refs/heads/main'\n" +
        '        name: "Build: all"\n        timeout-minutes: "5"\n',
      {
        removed: ['      - run: make'],
        added: [
          '      - run: |',
          '          make',
          '          make install',
          "        if: github.ref == 'refs/heads/main'",
          '        name: "Build: all"',
          '        timeout-minutes: "5"',
        ],
      },
    );
  });
});
