/**
 * What moved the workspace's files since the last scan, as far as git can tell (vmark-notes
 * §7.6, spec §9.4). A checkout only brings back content some commit already holds, so it must
 * not be recorded as new revisions; a merge or revert writes content of git's own making; a
 * plain commit records edits the person made, which stay outside edits. Pure, so every branch
 * can be tested with literal reflog lines.
 */
import type { GitMutationOp, GitState, ReflogEntry } from './git-state.js';

export type NavigationOp = 'checkout' | 'branch-switch' | 'reset' | 'detach' | 'worktree-switch';

export type GitClassification =
  | { readonly kind: 'none' }
  | { readonly kind: 'commit' }
  | {
      readonly kind: 'navigation';
      readonly op: NavigationOp;
      readonly from: string;
      readonly to: string;
      /** The branch now checked out; null when detached. */
      readonly ref: string | null;
      /**
       * The latest reflog record (null without a reflog): it tells this A→B move apart from
       * a later A→B, so that recording the second one is not taken for the first.
       */
      readonly evidence: string | null;
    }
  | {
      readonly kind: 'mutation';
      readonly op: GitMutationOp;
      /** Null when no earlier scan saw HEAD. */
      readonly from: string | null;
      /** Null on an unborn branch. */
      readonly to: string | null;
    };

const MUTATIONS: readonly (readonly [RegExp, GitMutationOp])[] = [
  [/^commit \(merge\):/, 'merge'],
  [/^merge /, 'merge'],
  [/^revert:/, 'revert'],
  [/^(?:cherry-pick|commit \(cherry-pick\)):/, 'cherry-pick'],
  [/^pull\b/, 'pull'],
  [/^rebase\b/, 'rebase'],
];

const COMMIT = /^commit(?: \((?:initial|amend)\))?:/;
const CHECKOUT = /^checkout: moving from .+ to (.+)$/;
const RESET = /^reset: moving to /;

function evidenceOf(entry: ReflogEntry): string {
  return `${entry.old} ${entry.new} ${entry.time}\t${entry.message}`;
}

/**
 * The reflog entry that brought HEAD to `head`: the latest one that moved it (entries such as
 * `reset: moving to HEAD` or `rebase (finish)` keep the sha), provided the log ends at `head`.
 */
function lastMove(reflog: readonly ReflogEntry[], head: string): ReflogEntry | null {
  if (reflog.at(-1)?.new !== head) return null;
  return reflog.findLast((e) => e.old !== e.new) ?? null;
}

function navigationOp(state: GitState, move: ReflogEntry | null, lastHead: string): NavigationOp {
  const target = move === null ? undefined : CHECKOUT.exec(move.message)?.[1];
  if (target !== undefined) {
    if (state.ref === null) return 'detach';
    return target === state.ref ? 'branch-switch' : 'checkout';
  }
  if (move !== null && RESET.test(move.message)) return 'reset';
  // A linked worktree whose HEAD was never where the last scan saw it: the ledger was last
  // reconciled from another worktree of the same repository.
  const seen = state.reflog.some((e) => e.old === lastHead || e.new === lastHead);
  return state.linkedWorktree && !seen ? 'worktree-switch' : 'checkout';
}

/**
 * Classifies the move from `lastHead` (HEAD as the last scan saw it; null when none did) to
 * `state`, in the spec's order: an operation in progress, then what the reflog says produced
 * the current HEAD, then the bare HEAD comparison.
 */
export function classifyGitState(state: GitState, lastHead: string | null): GitClassification {
  const [pending] = state.inProgress;
  if (pending !== undefined) return { kind: 'mutation', op: pending, from: lastHead, to: state.head };
  const { head } = state;
  // Without a previous HEAD there is no move to explain: the files are taken as they are.
  if (head === null || lastHead === null || head === lastHead) return { kind: 'none' };

  const move = lastMove(state.reflog, head);
  if (move !== null) {
    const mutation = MUTATIONS.find(([pattern]) => pattern.test(move.message));
    if (mutation !== undefined) return { kind: 'mutation', op: mutation[1], from: lastHead, to: head };
    if (COMMIT.test(move.message)) return { kind: 'commit' };
  }
  const latest = state.reflog.at(-1);
  return {
    kind: 'navigation',
    op: navigationOp(state, move, lastHead),
    from: lastHead,
    to: head,
    ref: state.ref,
    evidence: latest === undefined ? null : evidenceOf(latest),
  };
}
