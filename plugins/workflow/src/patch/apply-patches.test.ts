/**
 * The eight MCP kinds on a hand-written workflow that has a comment on every line that can
 * carry one, anchors and aliases (`&defaults`, `<<: *defaults`, `*runner`), flow sequences
 * with odd spacing, single- and double-quoted scalars and `|` / `>-` block scalars. Each
 * test states the exact output and the exact lines that changed.
 */
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { patchExpectations, swap } from '../../test/patch-expectations.js';

const FIXTURE = `# CI for the demo project
name: "CI"   # the display name

on:   # triggers
  push:   # pushes
    branches: [ main,  'release/**' ]   # odd spacing
    paths-ignore:   # docs only
      - 'docs/**'   # docs
      - "*.md"    # markdown
  pull_request:   # PRs
    types: [opened,synchronize]   # no spaces
  workflow_dispatch:   # by hand

env: &defaults   # shared env
  NODE_VERSION: '20'   # single-quoted
  CI: true   # a boolean

jobs:   # the jobs
  build:   # build job
    runs-on: &runner ubuntu-latest   # anchored runner
    env:   # job env
      <<: *defaults   # merged
      EXTRA: "1"   # quoted number
    steps:   # the steps
      - uses: actions/checkout@v4   # checkout

      - name: Set up node   # setup
        uses: actions/setup-node@v4   # the action
        with:   # inputs
          node-version: \${{ env.NODE_VERSION }}   # from env
          cache: npm   # npm cache

      - name: Test   # literal block
        run: |   # two commands
          npm ci
          npm test

      - name: Report   # folded block
        run: >-
          echo done
          and reported
        # trailing comment of the last step
  deploy:   # deploy job
    needs: build   # scalar needs
    runs-on: *runner   # alias
    steps:   # deploy steps
      - run: echo deploy   # deploy
# end of file
`;

const { expectEdit, expectNoChange } = patchExpectations(FIXTURE, { idempotent: true });

type Data = Record<string, unknown>;
const data = (text: string): Data => parseDocument(text).toJS() as Data;

describe('workflow.set', () => {
  it('rewrites a double-quoted scalar in its quotes, keeping the spaced trailing comment', () => {
    const expected = swap(
      FIXTURE,
      'name: "CI"   # the display name',
      'name: "Build and test"   # the display name',
    );
    expectEdit([{ kind: 'workflow.set', path: 'name', value: 'Build and test' }], expected, {
      removed: ['name: "CI"   # the display name'],
      added: ['name: "Build and test"   # the display name'],
    });
  });

  it('keeps single quotes, and the anchor of the mapping that holds the value', () => {
    const expected = swap(FIXTURE, "NODE_VERSION: '20'", "NODE_VERSION: '22'");
    expectEdit([{ kind: 'workflow.set', path: 'env.NODE_VERSION', value: '22' }], expected, {
      removed: ["  NODE_VERSION: '20'   # single-quoted"],
      added: ["  NODE_VERSION: '22'   # single-quoted"],
    });
    // The alias `<<: *defaults` in build's env now merges the new value.
    expect((data(expected)['jobs'] as Data)['build']).toMatchObject({
      env: { '<<': { NODE_VERSION: '22' } },
    });
  });

  it('writes a number plain where a quoted string stood, and quotes a string that reads as a boolean', () => {
    const expected = swap(
      swap(FIXTURE, "NODE_VERSION: '20'", 'NODE_VERSION: 22'),
      'CI: true   # a boolean',
      'CI: "true"   # a boolean',
    );
    expectEdit(
      [
        { kind: 'workflow.set', path: 'env.NODE_VERSION', value: 22 },
        { kind: 'workflow.set', path: 'env.CI', value: 'true' },
      ],
      expected,
      {
        removed: ["  NODE_VERSION: '20'   # single-quoted", '  CI: true   # a boolean'],
        added: ['  NODE_VERSION: 22   # single-quoted', '  CI: "true"   # a boolean'],
      },
    );
    expect(data(expected)['env']).toEqual({ NODE_VERSION: 22, CI: 'true' });
  });

  it('writes null', () => {
    const expected = swap(FIXTURE, 'CI: true   # a boolean', 'CI: null   # a boolean');
    expectEdit([{ kind: 'workflow.set', path: 'env.CI', value: null }], expected, {
      removed: ['  CI: true   # a boolean'],
      added: ['  CI: null   # a boolean'],
    });
  });

  it('adds a missing key after the last entry, at the entries’ indentation', () => {
    const expected = swap(FIXTURE, 'CI: true   # a boolean\n', 'CI: true   # a boolean\n  RUST_LOG: debug\n');
    expectEdit([{ kind: 'workflow.set', path: 'env.RUST_LOG', value: 'debug' }], expected, {
      removed: [],
      added: ['  RUST_LOG: debug'],
    });
  });

  it('creates missing intermediate mappings at the end of the top level, blank-line separated like its siblings', () => {
    const expected = swap(
      FIXTURE,
      '      - run: echo deploy   # deploy\n',
      '      - run: echo deploy   # deploy\n\ndefaults:\n  run:\n    shell: bash\n',
    );
    expectEdit([{ kind: 'workflow.set', path: 'defaults.run.shell', value: 'bash' }], expected, {
      removed: [],
      added: ['', 'defaults:', '  run:', '    shell: bash'],
    });
  });

  it('updates a flow sequence element by element, keeping its odd spacing and quote style', () => {
    const expected = swap(
      FIXTURE,
      "branches: [ main,  'release/**' ]",
      "branches: [ main,  'release/**',  'hotfix/*' ]",
    );
    expectEdit(
      [{ kind: 'workflow.set', path: 'on.push.branches', value: ['main', 'release/**', 'hotfix/*'] }],
      expected,
      {
        removed: ["    branches: [ main,  'release/**' ]   # odd spacing"],
        added: ["    branches: [ main,  'release/**',  'hotfix/*' ]   # odd spacing"],
      },
    );
  });

  it('refuses to turn a scalar into a mapping', () => {
    expectNoChange(
      [{ kind: 'workflow.set', path: 'name.full', value: 'x' }],
      ['workflow name is a scalar, not a mapping; patch 0 changed nothing'],
    );
  });
});

describe('trigger.setFilters', () => {
  it('shortens a flow list, keeping the padding before the bracket', () => {
    const expected = swap(FIXTURE, "branches: [ main,  'release/**' ]", 'branches: [ main ]');
    expectEdit(
      [{ kind: 'trigger.setFilters', event: 'push', filter: 'branches', value: ['main'] }],
      expected,
      {
        removed: ["    branches: [ main,  'release/**' ]   # odd spacing"],
        added: ['    branches: [ main ]   # odd spacing'],
      },
    );
  });

  it('appends to a block list in the style of its last element', () => {
    const expected = swap(
      FIXTURE,
      '      - "*.md"    # markdown\n',
      '      - "*.md"    # markdown\n      - "LICENSE"\n',
    );
    expectEdit(
      [
        {
          kind: 'trigger.setFilters',
          event: 'push',
          filter: 'paths-ignore',
          value: ['docs/**', '*.md', 'LICENSE'],
        },
      ],
      expected,
      { removed: [], added: ['      - "LICENSE"'] },
    );
  });

  it('adds a missing filter as a flow list, quoting only what needs it', () => {
    const expected = swap(
      FIXTURE,
      '    types: [opened,synchronize]   # no spaces\n',
      '    types: [opened,synchronize]   # no spaces\n    paths: [src/**, "**.md"]\n',
    );
    expectEdit(
      [{ kind: 'trigger.setFilters', event: 'pull_request', filter: 'paths', value: ['src/**', '**.md'] }],
      expected,
      { removed: [], added: ['    paths: [src/**, "**.md"]'] },
    );
  });

  it('removes the filter for an empty list, leaving `{}` when the event has nothing left', () => {
    const expected = swap(
      FIXTURE,
      '  pull_request:   # PRs\n    types: [opened,synchronize]   # no spaces\n',
      '  pull_request: {}   # PRs\n',
    );
    expectEdit(
      [{ kind: 'trigger.setFilters', event: 'pull_request', filter: 'types', value: [] }],
      expected,
      {
        removed: ['  pull_request:   # PRs', '    types: [opened,synchronize]   # no spaces'],
        added: ['  pull_request: {}   # PRs'],
      },
    );
  });

  it('changes nothing for an event written without filters or missing, and says why', () => {
    expectNoChange(
      [
        { kind: 'trigger.setFilters', event: 'workflow_dispatch', filter: 'types', value: ['x'] },
        { kind: 'trigger.setFilters', event: 'release', filter: 'types', value: ['published'] },
      ],
      [
        'on.workflow_dispatch is empty, not a mapping of filters; patch 0 changed nothing',
        'on: has no release event; patch 1 changed nothing',
      ],
    );
  });
});

describe('job.set', () => {
  it('keeps the anchor of an anchored scalar; the alias that points at it follows', () => {
    const expected = swap(FIXTURE, 'runs-on: &runner ubuntu-latest', 'runs-on: &runner ubuntu-24.04');
    expectEdit([{ kind: 'job.set', jobId: 'build', path: 'runs-on', value: 'ubuntu-24.04' }], expected, {
      removed: ['    runs-on: &runner ubuntu-latest   # anchored runner'],
      added: ['    runs-on: &runner ubuntu-24.04   # anchored runner'],
    });
    expect((data(expected)['jobs'] as Record<string, Data>)['deploy']?.['runs-on']).toBe('ubuntu-24.04');
  });

  it('writes a list as a sequence, not a string (runs-on labels)', () => {
    const expected = swap(FIXTURE, 'runs-on: &runner ubuntu-latest', 'runs-on: &runner [self-hosted, linux]');
    expectEdit(
      [{ kind: 'job.set', jobId: 'build', path: 'runs-on', value: ['self-hosted', 'linux'] }],
      expected,
      {
        removed: ['    runs-on: &runner ubuntu-latest   # anchored runner'],
        added: ['    runs-on: &runner [self-hosted, linux]   # anchored runner'],
      },
    );
    expect((data(expected)['jobs'] as Record<string, Data>)['build']?.['runs-on']).toEqual([
      'self-hosted',
      'linux',
    ]);
  });

  it('replaces an alias with the value', () => {
    const expected = swap(FIXTURE, 'runs-on: *runner   # alias', 'runs-on: macos-latest   # alias');
    expectEdit([{ kind: 'job.set', jobId: 'deploy', path: 'runs-on', value: 'macos-latest' }], expected, {
      removed: ['    runs-on: *runner   # alias'],
      added: ['    runs-on: macos-latest   # alias'],
    });
  });

  it('sets a nested existing key next to a merge key', () => {
    const expected = swap(FIXTURE, 'EXTRA: "1"', 'EXTRA: "2"');
    expectEdit([{ kind: 'job.set', jobId: 'build', path: 'env.EXTRA', value: '2' }], expected, {
      removed: ['      EXTRA: "1"   # quoted number'],
      added: ['      EXTRA: "2"   # quoted number'],
    });
  });

  it('adds the last key after the job’s last line, below the comment that closes its steps', () => {
    const expected = swap(
      FIXTURE,
      '        # trailing comment of the last step\n',
      '        # trailing comment of the last step\n    timeout-minutes: 30\n',
    );
    expectEdit([{ kind: 'job.set', jobId: 'build', path: 'timeout-minutes', value: 30 }], expected, {
      removed: [],
      added: ['    timeout-minutes: 30'],
    });
  });

  it('creates no intermediate mapping, and warns for a missing job', () => {
    expectNoChange(
      [
        { kind: 'job.set', jobId: 'build', path: 'strategy.fail-fast', value: false },
        { kind: 'job.set', jobId: 'release', path: 'runs-on', value: 'x' },
        { kind: 'job.set', jobId: 'build', path: 'runs-on.os', value: 'x' },
      ],
      [
        'job "build" has no mapping at strategy; patch 0 changed nothing',
        'job "release" does not exist; patch 1 changed nothing',
        'job "build" has runs-on as a scalar, not a mapping; patch 2 changed nothing',
      ],
    );
  });
});

describe('step.set', () => {
  it('rewrites a literal block scalar in place, keeping `|`, its comment and indentation', () => {
    const expected = swap(
      FIXTURE,
      '          npm ci\n          npm test\n',
      '          npm ci\n          npm run build\n',
    );
    expectEdit(
      [{ kind: 'step.set', jobId: 'build', stepIndex: 2, path: 'run', value: 'npm ci\nnpm run build\n' }],
      expected,
      { removed: ['          npm test'], added: ['          npm run build'] },
    );
  });

  it('keeps a folded `>-` block scalar folded', () => {
    const expected = swap(
      FIXTURE,
      '          echo done\n          and reported\n',
      '          echo finished\n',
    );
    expectEdit(
      [{ kind: 'step.set', jobId: 'build', stepIndex: 3, path: 'run', value: 'echo finished' }],
      expected,
      {
        removed: ['          echo done', '          and reported'],
        added: ['          echo finished'],
      },
    );
  });

  it('adds a key to a step whose mapping starts on the dash line', () => {
    const expected = swap(
      FIXTURE,
      '      - uses: actions/checkout@v4   # checkout\n',
      '      - uses: actions/checkout@v4   # checkout\n        name: Check out\n',
    );
    expectEdit(
      [{ kind: 'step.set', jobId: 'build', stepIndex: 0, path: 'name', value: 'Check out' }],
      expected,
      {
        removed: [],
        added: ['        name: Check out'],
      },
    );
  });

  it('walks an existing intermediate mapping', () => {
    const expected = swap(FIXTURE, 'cache: npm   # npm cache', 'cache: pnpm   # npm cache');
    expectEdit(
      [{ kind: 'step.set', jobId: 'build', stepIndex: 1, path: 'with.cache', value: 'pnpm' }],
      expected,
      {
        removed: ['          cache: npm   # npm cache'],
        added: ['          cache: pnpm   # npm cache'],
      },
    );
  });

  it('warns for a step index out of range or a missing intermediate', () => {
    expectNoChange(
      [
        { kind: 'step.set', jobId: 'build', stepIndex: 9, path: 'name', value: 'x' },
        { kind: 'step.set', jobId: 'build', stepIndex: 0, path: 'with.fetch-depth', value: 0 },
      ],
      [
        'job "build" has no step 9 (it has 4); patch 0 changed nothing',
        'step 0 of job "build" has no mapping at with; patch 1 changed nothing',
      ],
    );
  });
});

describe('with.set / with.remove', () => {
  it('adds an input after the last one', () => {
    const expected = swap(
      FIXTURE,
      '          cache: npm   # npm cache\n',
      '          cache: npm   # npm cache\n          check-latest: true\n',
    );
    expectEdit(
      [{ kind: 'with.set', jobId: 'build', stepIndex: 1, key: 'check-latest', value: true }],
      expected,
      {
        removed: [],
        added: ['          check-latest: true'],
      },
    );
  });

  it('creates `with:` when the step has none', () => {
    const expected = swap(
      FIXTURE,
      '      - uses: actions/checkout@v4   # checkout\n',
      '      - uses: actions/checkout@v4   # checkout\n        with:\n          fetch-depth: 0\n',
    );
    expectEdit([{ kind: 'with.set', jobId: 'build', stepIndex: 0, key: 'fetch-depth', value: 0 }], expected, {
      removed: [],
      added: ['        with:', '          fetch-depth: 0'],
    });
  });

  it('removes one input', () => {
    const expected = swap(FIXTURE, '          cache: npm   # npm cache\n', '');
    expectEdit([{ kind: 'with.remove', jobId: 'build', stepIndex: 1, key: 'cache' }], expected, {
      removed: ['          cache: npm   # npm cache'],
      added: [],
    });
  });

  it('removes `with:` itself with its last input', () => {
    const expected = swap(
      FIXTURE,
      '        with:   # inputs\n          node-version: ${{ env.NODE_VERSION }}   # from env\n          cache: npm   # npm cache\n',
      '',
    );
    expectEdit(
      [
        { kind: 'with.remove', jobId: 'build', stepIndex: 1, key: 'cache' },
        { kind: 'with.remove', jobId: 'build', stepIndex: 1, key: 'node-version' },
      ],
      expected,
      {
        removed: [
          '        with:   # inputs',
          '          node-version: ${{ env.NODE_VERSION }}   # from env',
          '          cache: npm   # npm cache',
        ],
        added: [],
      },
    );
  });

  it('changes nothing when the input is not there (nothing to warn about: the state already holds)', () => {
    expectNoChange([{ kind: 'with.remove', jobId: 'build', stepIndex: 0, key: 'token' }], []);
  });
});

describe('needs.add / needs.remove', () => {
  it('turns a scalar into a flow list, keeping the comment', () => {
    const expected = swap(FIXTURE, 'needs: build   # scalar needs', 'needs: [build, lint]   # scalar needs');
    expectEdit([{ kind: 'needs.add', jobId: 'deploy', ref: 'lint' }], expected, {
      removed: ['    needs: build   # scalar needs'],
      added: ['    needs: [build, lint]   # scalar needs'],
    });
  });

  it('creates `needs:` when missing', () => {
    const expected = swap(
      FIXTURE,
      '        # trailing comment of the last step\n',
      '        # trailing comment of the last step\n    needs: [lint]\n',
    );
    expectEdit([{ kind: 'needs.add', jobId: 'build', ref: 'lint' }], expected, {
      removed: [],
      added: ['    needs: [lint]'],
    });
  });

  it('does not add a job twice', () => {
    expectNoChange([{ kind: 'needs.add', jobId: 'deploy', ref: 'build' }], []);
  });

  it('removes `needs:` when the scalar is the job removed', () => {
    const expected = swap(FIXTURE, '    needs: build   # scalar needs\n', '');
    expectEdit([{ kind: 'needs.remove', jobId: 'deploy', ref: 'build' }], expected, {
      removed: ['    needs: build   # scalar needs'],
      added: [],
    });
  });

  it('warns for a missing job', () => {
    expectNoChange(
      [{ kind: 'needs.remove', jobId: 'release', ref: 'build' }],
      ['job "release" does not exist; patch 0 changed nothing'],
    );
  });
});
