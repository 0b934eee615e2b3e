import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digestOf } from './file-digest.js';
import { walkChanges } from './walk-changes.js';
import { WalkCache, walkWorkspace, type WalkResult } from './walk-workspace.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'vmark-rewalk-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const abs = (rel: string): string => join(root, ...rel.split('/'));
const doc = (n: number): string =>
  `---\nvmark:\n  id: 0190a000-0000-7000-8000-${String(n).padStart(12, '0')}\n---\n\n${n}\n`;

/** A walk as a reader sees it: paths with digests, and everything it could not see. */
function seen(walk: WalkResult): unknown {
  return {
    files: walk.files.map((f) => [f.path, digestOf(f)]),
    diagnostics: walk.diagnostics,
    skipped: walk.skipped,
    skippedDirs: walk.skippedDirs,
    complete: walk.complete,
  };
}

/** A change to the tree, and the paths a folder watch would report for it. */
type Change = (n: number) => Promise<string[]>;

const FOLDERS = ['a', 'a/b', 'c', 'node_modules'];
const changes: fc.Arbitrary<Change>[] = [
  // A file written (created or edited), in any folder.
  fc
    .record({ dir: fc.constantFrom('', ...FOLDERS), name: fc.constantFrom('x.md', 'y.md', 'z.txt') })
    .map(({ dir, name }) => async (n) => {
      const rel = dir === '' ? name : `${dir}/${name}`;
      await mkdir(abs(dir), { recursive: true });
      await writeFile(abs(rel), doc(n));
      return [rel];
    }),
  // A file or folder removed.
  fc.constantFrom('x.md', 'a/x.md', 'a/b', 'a', 'c/y.md').map((rel) => async () => {
    await rm(abs(rel), { recursive: true, force: true });
    return [rel];
  }),
  // A folder renamed inside the tree: both names are reported by the parent's watch.
  fc.constantFrom(['a', 'c'], ['c', 'a'], ['a/b', 'b'], ['c', 'a/c']).map(([from, to]) => async () => {
    const moved = await rename(abs(from as string), abs(to as string)).then(
      () => true,
      () => false,
    );
    return moved ? [from as string, to as string] : [];
  }),
  // A folder with documents moved in from outside: one event, for the folder.
  fc.constantFrom('in', 'a/in').map((rel) => async (n) => {
    const outside = `${root}-outside-${n}`;
    await mkdir(join(outside, 'deep'), { recursive: true });
    await writeFile(join(outside, 'deep', 'd.md'), doc(n));
    await writeFile(join(outside, 'e.md'), doc(n + 1));
    await mkdir(join(abs(rel), '..'), { recursive: true });
    const moved = await rename(outside, abs(rel)).then(
      () => true,
      () => false,
    );
    await rm(outside, { recursive: true, force: true });
    return moved ? [rel] : [];
  }),
  // A link where a file or folder was.
  fc.constantFrom('l.md', 'a/l').map((rel) => async () => {
    await rm(abs(rel), { recursive: true, force: true });
    await mkdir(join(abs(rel), '..'), { recursive: true });
    await symlink(root, abs(rel));
    return [rel];
  }),
];

describe('walkChanges', () => {
  it('returns what a whole walk returns, given the paths a watch reports', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(...changes), { minLength: 1, maxLength: 6 }), async (steps) => {
        await rm(root, { recursive: true, force: true });
        await mkdir(join(root, 'a', 'b'), { recursive: true });
        await writeFile(join(root, 'a', 'b', 'w.md'), doc(900 + runs++));
        const cache = new WalkCache({ racyWindowNs: 0n });
        let walk = await walkWorkspace(root, { cache });
        for (const [i, step] of steps.entries()) {
          const reported = await step(i * 10);
          const rewalked = await walkChanges(root, walk, reported, { cache });
          expect(rewalked).not.toBeNull();
          walk = rewalked as WalkResult;
          expect(seen(walk)).toEqual(seen(await walkWorkspace(root)));
        }
      }),
      { numRuns: Number(process.env.COH_RUNS ?? 40) },
    );
  });

  it('keeps the earlier walk itself when nothing it looks at was reported', async () => {
    await writeFile(join(root, 'a.md'), doc(1));
    const walk = await walkWorkspace(root);
    expect(await walkChanges(root, walk, ['.git/index', 'node_modules/x/y.md'])).toBe(walk);
  });

  it('leaves a walk that was cut short to a whole walk', async () => {
    await writeFile(join(root, 'a.md'), doc(1));
    await writeFile(join(root, 'b.md'), doc(2));
    const walk = await walkWorkspace(root, { maxFiles: 1 });
    expect(walk.complete).toBe(false);
    expect(await walkChanges(root, walk, ['a.md'])).toBeNull();
  });
});
