import { describe, expect, it } from 'vitest';
import { classifyGitState } from './git-classifier.js';
import { parseReflogLine, type GitState, type ReflogEntry } from './git-state.js';

const Z = '0'.repeat(40);
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

/** A reflog entry from the literal line git would write. */
function line(old: string, next: string, message: string): ReflogEntry {
  const entry = parseReflogLine(`${old} ${next} Ann Lee <ann@example.com> 1700000000 +0000\t${message}`);
  if (entry === null) throw new Error('unparseable reflog line');
  return entry;
}
const evidence = (e: ReflogEntry): string => `${e.old} ${e.new} ${e.time}\t${e.message}`;

function state(head: string | null, reflog: ReflogEntry[], extra: Partial<GitState> = {}): GitState {
  return { head, ref: 'main', inProgress: [], linkedWorktree: false, reflog, ...extra };
}

describe('classifyGitState', () => {
  it('is none when HEAD did not move, when no scan saw HEAD before, and on an unborn branch', () => {
    const log = [line(Z, A, 'commit (initial): one'), line(A, B, 'checkout: moving from main to x')];
    expect(classifyGitState(state(B, log), B)).toEqual({ kind: 'none' });
    expect(classifyGitState(state(B, log), null)).toEqual({ kind: 'none' });
    expect(classifyGitState(state(null, []), A)).toEqual({ kind: 'none' });
  });

  it('checks operations in progress first, merge before the others, even with HEAD unmoved', () => {
    const log = [line(A, B, 'checkout: moving from main to x')];
    expect(classifyGitState(state(B, log, { inProgress: ['merge', 'revert'] }), B)).toEqual({
      kind: 'mutation',
      op: 'merge',
      from: B,
      to: B,
    });
    expect(classifyGitState(state(B, log, { inProgress: ['revert'] }), null)).toEqual({
      kind: 'mutation',
      op: 'revert',
      from: null,
      to: B,
    });
    expect(classifyGitState(state(B, [], { inProgress: ['cherry-pick'] }), A)).toMatchObject({
      op: 'cherry-pick',
    });
  });

  it.each([
    ['commit (merge): Merge branch x', 'merge'],
    ['merge x: Fast-forward', 'merge'],
    ["merge x: Merge made by the 'ort' strategy.", 'merge'],
    ['revert: Revert "two"', 'revert'],
    ['cherry-pick: two', 'cherry-pick'],
    ['commit (cherry-pick): two', 'cherry-pick'],
    ['pull: Fast-forward', 'pull'],
    ["pull --no-rebase . x: Merge made by the 'ort' strategy.", 'pull'],
    ['rebase (pick): z', 'rebase'],
  ])('takes "%s" for a git mutation (%s)', (message, op) => {
    expect(classifyGitState(state(B, [line(A, B, message)]), A)).toEqual({
      kind: 'mutation',
      op,
      from: A,
      to: B,
    });
  });

  it('looks past entries that kept HEAD where it was to the one that moved it', () => {
    const log = [line(A, B, 'rebase (pick): z'), line(B, B, 'rebase (finish): returning to refs/heads/main')];
    expect(classifyGitState(state(B, log), A)).toMatchObject({ kind: 'mutation', op: 'rebase' });
  });

  it.each(['commit: two', 'commit (amend): two again', 'commit (initial): one'])(
    'takes "%s" for the person\'s own commit',
    (message) => {
      expect(classifyGitState(state(B, [line(A, B, message)]), A)).toEqual({ kind: 'commit' });
    },
  );

  it('takes a checkout to the branch now checked out for a branch switch', () => {
    const move = line(A, B, 'checkout: moving from main to draft');
    expect(classifyGitState(state(B, [move], { ref: 'draft' }), A)).toEqual({
      kind: 'navigation',
      op: 'branch-switch',
      from: A,
      to: B,
      ref: 'draft',
      evidence: evidence(move),
    });
  });

  it('takes a checkout that left HEAD detached for a detach, with no ref', () => {
    const move = line(A, B, 'checkout: moving from main to HEAD~1');
    expect(classifyGitState(state(B, [move], { ref: null }), A)).toMatchObject({
      kind: 'navigation',
      op: 'detach',
      ref: null,
    });
  });

  it('takes a checkout whose target is not the current branch for a plain checkout', () => {
    const move = line(A, B, 'checkout: moving from main to v1.0');
    expect(classifyGitState(state(B, [move]), A)).toMatchObject({ op: 'checkout', ref: 'main' });
  });

  it('takes a reset for a reset', () => {
    const move = line(A, B, 'reset: moving to HEAD~1');
    expect(classifyGitState(state(B, [move]), A)).toMatchObject({
      kind: 'navigation',
      op: 'reset',
      from: A,
      to: B,
    });
  });

  it('falls back to a checkout when the reflog is missing, ends elsewhere, or says nothing known', () => {
    expect(classifyGitState(state(B, []), A)).toEqual({
      kind: 'navigation',
      op: 'checkout',
      from: A,
      to: B,
      ref: 'main',
      evidence: null,
    });
    // The log ends at C, not at HEAD: some ref update went unlogged, so the message is no evidence.
    const stale = line(A, C, 'commit: three');
    expect(classifyGitState(state(B, [stale]), A)).toMatchObject({
      kind: 'navigation',
      op: 'checkout',
      evidence: evidence(stale),
    });
    expect(classifyGitState(state(B, [line(Z, B, 'clone: from /elsewhere')]), A)).toMatchObject({
      op: 'checkout',
    });
  });

  it('takes a linked worktree whose reflog never held the last HEAD for a worktree switch', () => {
    const birth = line(Z, B, '');
    expect(classifyGitState(state(B, [birth], { linkedWorktree: true }), A)).toMatchObject({
      kind: 'navigation',
      op: 'worktree-switch',
      from: A,
      to: B,
    });
    const known = [line(Z, A, ''), line(A, C, 'update by script'), line(C, B, '')];
    expect(classifyGitState(state(B, known, { linkedWorktree: true }), A)).toMatchObject({ op: 'checkout' });
  });

  it('gives a later identical move other evidence, and the same state the same classification', () => {
    const first = [line(A, B, 'checkout: moving from main to x')];
    const later = [
      ...first,
      line(B, A, 'checkout: moving from x to main'),
      { ...line(A, B, 'checkout: moving from main to x'), time: '1700000099 +0000' },
    ];
    const once = classifyGitState(state(B, first, { ref: 'x' }), A);
    expect(classifyGitState(state(B, first, { ref: 'x' }), A)).toEqual(once);
    const again = classifyGitState(state(B, later, { ref: 'x' }), A);
    expect(again).toMatchObject({ op: 'branch-switch', from: A, to: B });
    expect(again).not.toEqual(once);
  });
});
