/**
 * The seven internal kinds (forms editor only) on a workflow whose jobs and steps are
 * separated by blank lines, with comments above and below items and a flush
 * (`steps:\n    - run`) sequence.
 */
import { describe, expect, it } from 'vitest';
import { applyPatches } from './apply-patches.js';
import { lines, patchExpectations, swap } from '../../test/patch-expectations.js';

const FIXTURE = `name: Release   # name

jobs:   # jobs
  build:   # build
    runs-on: ubuntu-latest   # runner
    steps:   # steps
      # Check out first.
      - uses: actions/checkout@v4   # checkout

      - name: Build   # build step
        run: make   # make

      - name: Upload   # upload
        uses: actions/upload-artifact@v4
        with:
          path: dist/   # artifacts
        # the upload needs the build

  publish:   # publish
    needs: [ build ]   # flow needs
    runs-on: ubuntu-latest
    steps:
    - run: ./publish.sh   # flush sequence

permissions: read-all   # least privilege
`;

const { expectEdit, expectNoChange } = patchExpectations(FIXTURE, { idempotent: false });

const BUILD_STEPS = `      # Check out first.
      - uses: actions/checkout@v4   # checkout

      - name: Build   # build step
        run: make   # make

      - name: Upload   # upload
        uses: actions/upload-artifact@v4
        with:
          path: dist/   # artifacts
        # the upload needs the build
`;

describe('job.create / job.delete', () => {
  it('appends a job with runs-on and an empty step list, blank-line separated like the others', () => {
    const expected = swap(
      FIXTURE,
      '    - run: ./publish.sh   # flush sequence\n',
      '    - run: ./publish.sh   # flush sequence\n\n  lint:\n    runs-on: ubuntu-latest\n    steps: []\n',
    );
    const text = expectEdit([{ kind: 'job.create', jobId: 'lint' }], expected, {
      removed: [],
      added: ['  lint:', '    runs-on: ubuntu-latest', '    steps: []', ''],
    });
    // job.delete is its inverse.
    expect(applyPatches(text, [{ kind: 'job.delete', jobId: 'lint' }]).text).toBe(FIXTURE);
  });

  it('takes the runner given', () => {
    const expected = swap(
      FIXTURE,
      '    - run: ./publish.sh   # flush sequence\n',
      '    - run: ./publish.sh   # flush sequence\n\n  mac:\n    runs-on: macos-latest\n    steps: []\n',
    );
    expectEdit([{ kind: 'job.create', jobId: 'mac', runsOn: 'macos-latest' }], expected, {
      removed: [],
      added: ['  mac:', '    runs-on: macos-latest', '    steps: []', ''],
    });
  });

  it('refuses to overwrite a job', () => {
    expectNoChange(
      [{ kind: 'job.create', jobId: 'build' }],
      ['job "build" already exists and job.create does not overwrite; patch 0 changed nothing'],
    );
  });

  it('deletes the first job with its lines; the next one loses its separating blank line', () => {
    const start = FIXTURE.indexOf('  build:   # build\n');
    const end = FIXTURE.indexOf('  publish:');
    const expected = FIXTURE.slice(0, start) + FIXTURE.slice(end);
    const removed = lines(FIXTURE.slice(start, end).match(/[^\n]*\n/g) ?? []);
    expectEdit([{ kind: 'job.delete', jobId: 'build' }], expected, { removed, added: [] });
  });

  it('warns when the job does not exist', () => {
    expectNoChange(
      [{ kind: 'job.delete', jobId: 'lint' }],
      ['job "lint" does not exist; patch 0 changed nothing'],
    );
  });
});

describe('step.insert', () => {
  it('inserts between steps with a separating blank line', () => {
    const expected = swap(
      FIXTURE,
      '      - uses: actions/checkout@v4   # checkout\n',
      '      - uses: actions/checkout@v4   # checkout\n\n      - name: Lint\n        run: npm run lint\n',
    );
    const text = expectEdit(
      [{ kind: 'step.insert', jobId: 'build', index: 1, step: { name: 'Lint', run: 'npm run lint' } }],
      expected,
      { removed: [], added: ['      - name: Lint', '        run: npm run lint', ''] },
    );
    expect(applyPatches(text, [{ kind: 'step.delete', jobId: 'build', stepIndex: 1 }]).text).toBe(FIXTURE);
  });

  it('inserts first above the first step’s comment; the old first step gets a blank line', () => {
    const expected = swap(
      FIXTURE,
      '      # Check out first.\n',
      '      - uses: actions/cache@v4\n\n      # Check out first.\n',
    );
    expectEdit(
      [{ kind: 'step.insert', jobId: 'build', index: -2, step: { uses: 'actions/cache@v4' } }],
      expected,
      {
        removed: [],
        added: ['      - uses: actions/cache@v4', ''],
      },
    );
  });

  it('appends `run: echo TODO` for an empty step, below the comment that closes the last step', () => {
    const expected = swap(
      FIXTURE,
      '        # the upload needs the build\n',
      '        # the upload needs the build\n\n      - run: echo TODO\n',
    );
    expectEdit([{ kind: 'step.insert', jobId: 'build', index: 99, step: { name: '' } }], expected, {
      removed: [],
      added: ['      - run: echo TODO', ''],
    });
  });

  it('follows a flush sequence', () => {
    const expected = swap(
      FIXTURE,
      '    - run: ./publish.sh   # flush sequence\n',
      '    - run: ./publish.sh   # flush sequence\n    - name: Notify\n      uses: acme/notify@v1\n',
    );
    expectEdit(
      [{ kind: 'step.insert', jobId: 'publish', index: 1, step: { name: 'Notify', uses: 'acme/notify@v1' } }],
      expected,
      { removed: [], added: ['    - name: Notify', '      uses: acme/notify@v1'] },
    );
  });

  it('warns for a missing job', () => {
    expectNoChange(
      [{ kind: 'step.insert', jobId: 'lint', index: 0, step: {} }],
      ['job "lint" does not exist; patch 0 changed nothing'],
    );
  });
});

describe('step.delete', () => {
  it('deletes the last step with the comment that closes it', () => {
    const expected = swap(
      FIXTURE,
      `
      - name: Upload   # upload
        uses: actions/upload-artifact@v4
        with:
          path: dist/   # artifacts
        # the upload needs the build
`,
      '',
    );
    expectEdit([{ kind: 'step.delete', jobId: 'build', stepIndex: 2 }], expected, {
      removed: [
        '      - name: Upload   # upload',
        '        uses: actions/upload-artifact@v4',
        '        with:',
        '          path: dist/   # artifacts',
        '        # the upload needs the build',
        '',
      ],
      added: [],
    });
  });

  it('deletes the first step with the comment above it; the next loses its blank line', () => {
    const expected = swap(
      FIXTURE,
      '      # Check out first.\n      - uses: actions/checkout@v4   # checkout\n\n',
      '',
    );
    expectEdit([{ kind: 'step.delete', jobId: 'build', stepIndex: 0 }], expected, {
      removed: ['      # Check out first.', '      - uses: actions/checkout@v4   # checkout', ''],
      added: [],
    });
  });

  it('leaves `steps: []` when the last step goes', () => {
    const expected = swap(
      FIXTURE,
      '    steps:\n    - run: ./publish.sh   # flush sequence\n',
      '    steps: []\n',
    );
    expectEdit([{ kind: 'step.delete', jobId: 'publish', stepIndex: 0 }], expected, {
      removed: ['    steps:', '    - run: ./publish.sh   # flush sequence'],
      added: ['    steps: []'],
    });
  });

  it('warns for an index out of range', () => {
    expectNoChange(
      [{ kind: 'step.delete', jobId: 'publish', stepIndex: 1 }],
      ['job "publish" has no step 1 (it has 1); patch 0 changed nothing'],
    );
  });
});

describe('step.move', () => {
  it('moves the last step first, with its comments; separation stays as it was', () => {
    const moved = BUILD_STEPS.replace(
      BUILD_STEPS,
      `      - name: Upload   # upload
        uses: actions/upload-artifact@v4
        with:
          path: dist/   # artifacts
        # the upload needs the build

      # Check out first.
      - uses: actions/checkout@v4   # checkout

      - name: Build   # build step
        run: make   # make
`,
    );
    const expected = swap(FIXTURE, BUILD_STEPS, moved);
    const text = applyPatches(FIXTURE, [
      { kind: 'step.move', jobId: 'build', fromIndex: 2, toIndex: 0 },
    ]).text;
    expect(text).toBe(expected);
    // And back again.
    expect(applyPatches(text, [{ kind: 'step.move', jobId: 'build', fromIndex: 0, toIndex: 2 }]).text).toBe(
      FIXTURE,
    );
  });

  it('clamps the target index', () => {
    const moved = `      - name: Build   # build step
        run: make   # make

      - name: Upload   # upload
        uses: actions/upload-artifact@v4
        with:
          path: dist/   # artifacts
        # the upload needs the build

      # Check out first.
      - uses: actions/checkout@v4   # checkout
`;
    const result = applyPatches(FIXTURE, [{ kind: 'step.move', jobId: 'build', fromIndex: 0, toIndex: 40 }]);
    expect(result.text).toBe(swap(FIXTURE, BUILD_STEPS, moved));
  });

  it('changes nothing for the same position, and warns for a missing step', () => {
    expectNoChange([{ kind: 'step.move', jobId: 'build', fromIndex: 2, toIndex: 7 }], []);
    expectNoChange(
      [{ kind: 'step.move', jobId: 'build', fromIndex: 3, toIndex: 0 }],
      ['job "build" has no step 3 (it has 3); patch 0 changed nothing'],
    );
  });
});

describe('workflow.permissions.set / workflow.concurrency.set', () => {
  it('sets a permissions string in place', () => {
    const expected = swap(FIXTURE, 'permissions: read-all', 'permissions: write-all');
    expectEdit([{ kind: 'workflow.permissions.set', value: 'write-all' }], expected, {
      removed: ['permissions: read-all   # least privilege'],
      added: ['permissions: write-all   # least privilege'],
    });
  });

  it('replaces a permissions string with a scope table, keeping the key’s comment', () => {
    const expected = swap(
      FIXTURE,
      'permissions: read-all   # least privilege\n',
      'permissions:   # least privilege\n  contents: read\n  packages: write\n',
    );
    const text = expectEdit(
      [{ kind: 'workflow.permissions.set', value: { contents: 'read', packages: 'write' } }],
      expected,
      {
        removed: ['permissions: read-all   # least privilege'],
        added: ['permissions:   # least privilege', '  contents: read', '  packages: write'],
      },
    );
    // A table over a table is updated key by key: kept, changed, dropped.
    const again = applyPatches(text, [{ kind: 'workflow.permissions.set', value: { contents: 'write' } }]);
    expect(again.text).toBe(
      swap(
        FIXTURE,
        'permissions: read-all   # least privilege\n',
        'permissions:   # least privilege\n  contents: write\n',
      ),
    );
  });

  it('adds, reshapes and removes concurrency', () => {
    const added = applyPatches(FIXTURE, [{ kind: 'workflow.concurrency.set', value: 'release' }]);
    expect(added.text).toBe(`${FIXTURE}\nconcurrency: release\n`);
    const reshaped = applyPatches(added.text, [
      {
        kind: 'workflow.concurrency.set',
        value: { group: 'release-${{ github.ref }}', cancelInProgress: true },
      },
    ]);
    expect(reshaped.text).toBe(
      `${FIXTURE}\nconcurrency:\n  group: release-\${{ github.ref }}\n  cancel-in-progress: true\n`,
    );
    expect(applyPatches(reshaped.text, [{ kind: 'workflow.concurrency.set', value: null }]).text).toBe(
      FIXTURE,
    );
    expectNoChange([{ kind: 'workflow.concurrency.set', value: null }], []);
  });
});
