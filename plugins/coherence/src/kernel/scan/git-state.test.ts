import { isolatedGit } from '../../../test/isolated-git.js';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseReflogLine, readGitState } from './git-state.js';

let base: string;
let repo: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'vmark-git-state-'));
  repo = join(base, 'repo');
  await mkdir(repo);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]): string => isolatedGit(cwd, base, ...args);
/** Runs a git command expected to stop on a conflict. */
function gitConflict(cwd: string, ...args: string[]): void {
  expect(() => git(cwd, ...args)).toThrow();
}
const sha = (rev = 'HEAD', cwd = repo): string => git(cwd, 'rev-parse', rev);
async function commit(message: string, content: string, file = 'doc.md'): Promise<string> {
  await writeFile(join(repo, file), content);
  git(repo, 'add', file);
  git(repo, 'commit', '-q', '-m', message);
  return sha();
}
async function lastMessage(cwd = repo): Promise<string | undefined> {
  return (await readGitState(cwd))?.reflog.at(-1)?.message;
}

describe('readGitState', () => {
  it('is null without a .git, or with a .git file naming no git dir', async () => {
    expect(await readGitState(repo)).toBeNull();
    await writeFile(join(repo, '.git'), 'not a gitdir line\n');
    expect(await readGitState(repo)).toBeNull();
  });

  it('reads an unborn branch: a ref, no HEAD commit, no reflog', async () => {
    git(repo, 'init', '-q', '-b', 'main');
    expect(await readGitState(repo)).toEqual({
      head: null,
      ref: 'main',
      inProgress: [],
      linkedWorktree: false,
      reflog: [],
    });
  });

  it('reads HEAD, branch and reflog through commits, a branch switch, a detach and a reset', async () => {
    git(repo, 'init', '-q', '-b', 'main');
    const one = await commit('one', 'v1\n');
    let state = await readGitState(repo);
    expect(state?.head).toBe(one);
    expect(state?.ref).toBe('main');
    expect(state?.reflog).toEqual([
      {
        old: '0'.repeat(40),
        new: one,
        time: expect.stringMatching(/^\d+ [+-]\d{4}$/),
        message: 'commit (initial): one',
      },
    ]);

    const two = await commit('two', 'v2\n');
    git(repo, 'commit', '-q', '--amend', '-m', 'two again');
    const amended = sha();
    expect(amended).not.toBe(two);
    expect(await lastMessage()).toBe('commit (amend): two again');

    git(repo, 'checkout', '-q', '-b', 'draft', one);
    state = await readGitState(repo);
    expect([state?.head, state?.ref]).toEqual([one, 'draft']);
    expect(state?.reflog.at(-1)).toMatchObject({
      old: amended,
      new: one,
      message: 'checkout: moving from main to draft',
    });

    git(repo, 'checkout', '-q', 'main');
    expect(await lastMessage()).toBe('checkout: moving from draft to main');

    git(repo, 'checkout', '-q', 'HEAD~1');
    state = await readGitState(repo);
    expect([state?.head, state?.ref]).toEqual([one, null]);
    expect(state?.reflog.at(-1)?.message).toBe('checkout: moving from main to HEAD~1');

    git(repo, 'checkout', '-q', 'main');
    git(repo, 'reset', '-q', '--hard', 'HEAD~1');
    state = await readGitState(repo);
    expect([state?.head, state?.ref]).toEqual([one, 'main']);
    expect(state?.reflog.at(-1)?.message).toBe('reset: moving to HEAD~1');
  });

  it('follows HEAD into packed-refs once the loose ref is gone', async () => {
    git(repo, 'init', '-q', '-b', 'main');
    const one = await commit('one', 'v1\n');
    git(repo, 'tag', '-a', '-m', 'annotated', 'v1');
    git(repo, 'pack-refs', '--all');
    // pack-refs pruned the loose ref: only packed-refs now names main.
    await expect(stat(join(repo, '.git', 'refs', 'heads', 'main'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await readGitState(repo))?.head).toBe(one);
  });

  it('reads merges: fast-forward, a merge commit, and MERGE_HEAD while a merge is conflicted', async () => {
    git(repo, 'init', '-q', '-b', 'main');
    await commit('one', 'v1\n');
    git(repo, 'checkout', '-q', '-b', 'side');
    const side = await commit('side', 'side\n');
    git(repo, 'checkout', '-q', 'main');
    git(repo, 'merge', '-q', 'side');
    expect((await readGitState(repo))?.head).toBe(side);
    expect(await lastMessage()).toBe('merge side: Fast-forward');

    await commit('other file', 'x\n', 'other.md');
    git(repo, 'checkout', '-q', 'side');
    await commit('side two', 'side two\n');
    git(repo, 'checkout', '-q', 'main');
    git(repo, 'merge', '-q', '--no-edit', 'side');
    expect(await lastMessage()).toMatch(/^merge side: Merge made by the '\w+' strategy\.$/);

    await commit('main edit', 'main\n');
    git(repo, 'checkout', '-q', 'side');
    await commit('side edit', 'side edit\n');
    git(repo, 'checkout', '-q', 'main');
    const before = sha();
    gitConflict(repo, 'merge', '-q', 'side');
    const state = await readGitState(repo);
    expect(state?.inProgress).toEqual(['merge']);
    expect(state?.head).toBe(before);

    await writeFile(join(repo, 'doc.md'), 'resolved\n');
    git(repo, 'commit', '-q', '-a', '--no-edit');
    expect(await readGitState(repo)).toMatchObject({ inProgress: [] });
    expect(await lastMessage()).toMatch(/^commit \(merge\): /);
  });

  it('reads a revert, and REVERT_HEAD / CHERRY_PICK_HEAD while they are conflicted', async () => {
    git(repo, 'init', '-q', '-b', 'main');
    await commit('one', 'v1\n');
    await commit('two', 'v2\n');
    git(repo, 'revert', '--no-edit', 'HEAD');
    expect(await lastMessage()).toBe('revert: Revert "two"');

    await commit('three', 'v3\n');
    gitConflict(repo, 'revert', '--no-edit', 'HEAD~2');
    expect((await readGitState(repo))?.inProgress).toEqual(['revert']);
    git(repo, 'revert', '--abort');

    git(repo, 'checkout', '-q', '-b', 'pick', 'HEAD~2');
    gitConflict(repo, 'cherry-pick', 'main');
    expect((await readGitState(repo))?.inProgress).toEqual(['cherry-pick']);
  });

  it('reads a linked worktree through its gitdir file: its own HEAD and reflog, shared refs', async () => {
    git(repo, 'init', '-q', '-b', 'main');
    const one = await commit('one', 'v1\n');
    const two = await commit('two', 'v2\n');
    const tree = join(base, 'tree');
    git(repo, 'worktree', 'add', '-q', '-b', 'wt', tree, one);
    let state = await readGitState(tree);
    expect(state).toMatchObject({ head: one, ref: 'wt', inProgress: [], linkedWorktree: true });
    // Git logs the worktree's birth without a message.
    expect(state?.reflog[0]).toEqual({
      old: '0'.repeat(40),
      new: one,
      time: expect.any(String),
      message: '',
    });

    git(tree, 'checkout', '-q', 'main~0^{commit}');
    state = await readGitState(tree);
    expect([state?.head, state?.ref]).toEqual([two, null]);
    expect((await readGitState(repo))?.head).toBe(two);
    expect((await readGitState(repo))?.linkedWorktree).toBe(false);
  });

  it('never throws on a malformed repository: it returns what it can read', async () => {
    const dotGit = join(repo, '.git');
    await mkdir(join(dotGit, 'logs'), { recursive: true });
    await writeFile(join(dotGit, 'HEAD'), 'garbage\n');
    expect(await readGitState(repo)).toEqual({
      head: null,
      ref: null,
      inProgress: [],
      linkedWorktree: false,
      reflog: [],
    });
    // A symbolic ref loop, a ref escaping the repository, and a reflog with a broken line.
    await writeFile(join(dotGit, 'HEAD'), 'ref: refs/heads/a\n');
    await mkdir(join(dotGit, 'refs', 'heads'), { recursive: true });
    await writeFile(join(dotGit, 'refs', 'heads', 'a'), 'ref: refs/heads/b\n');
    await writeFile(join(dotGit, 'refs', 'heads', 'b'), 'ref: refs/heads/a\n');
    const a = 'a'.repeat(40);
    await writeFile(
      join(dotGit, 'logs', 'HEAD'),
      `half a line\n${'0'.repeat(40)} ${a} T <t@example.com> 1700000000 +0100\tcommit (initial): x\n`,
    );
    expect(await readGitState(repo)).toMatchObject({ head: null, ref: 'a', reflog: [{ new: a }] });
    await writeFile(join(dotGit, 'HEAD'), 'ref: refs/../../outside\n');
    expect((await readGitState(repo))?.head).toBeNull();
  });

  it('reads only the tail of a long reflog', async () => {
    const dotGit = join(repo, '.git');
    await mkdir(join(dotGit, 'logs'), { recursive: true });
    const hex = (n: number): string => n.toString(16).padStart(40, '0');
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `${hex(i)} ${hex(i + 1)} T <t@example.com> 1700000000 +0000\tcommit: ${i}\n`,
    );
    await writeFile(join(dotGit, 'logs', 'HEAD'), lines.join(''));
    await writeFile(join(dotGit, 'HEAD'), `${hex(3000)}\n`);
    const state = await readGitState(repo, { reflogLimit: 3 });
    expect(state?.head).toBe(hex(3000));
    expect(state?.reflog.map((e) => e.message)).toEqual(['commit: 2997', 'commit: 2998', 'commit: 2999']);
  });
});

describe('parseReflogLine', () => {
  it('splits a line at the identity, keeping spaces in the name and tabs out of the message', () => {
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    expect(
      parseReflogLine(`${a} ${b} Ann Lee <ann@x> 1700000000 -0330\tcheckout: moving from a to b`),
    ).toEqual({
      old: a,
      new: b,
      time: '1700000000 -0330',
      message: 'checkout: moving from a to b',
    });
    expect(parseReflogLine(`${a} ${b} Ann <ann@x> 1700000000 +0000`)?.message).toBe('');
    expect(parseReflogLine('not a reflog line')).toBeNull();
  });
});
