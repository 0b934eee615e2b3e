/**
 * The document plugin's part of a move in the file list (ADR 70): for the host's `filesMoved`
 * hook, a rewrite of every Markdown note of the workspace that keeps its links to the moved files
 * working (`link-rewrite.ts`, ADR 64). The host reads and writes each note (guarded, one
 * checkpoint a note); this only turns a text into the text it should be, and counts the links.
 */
import type { FileMove, FileRewrite, FilesMovedProposal } from '@vmark/sdk';
import { applyEdits, editsForMove } from './link-rewrite.js';
import { noteLinks } from './note-links.js';

const NOTE = /\.md$/i;

/** The rewrites the notes of `proposal.files` need: one per note, each a no-op when nothing links. */
export function linkRewrites(proposal: FilesMovedProposal): FileRewrite[] {
  const movedTo = new Map(proposal.moves.map((move) => [move.from, move.to]));
  return proposal.files
    .filter((file) => NOTE.test(file))
    .map((file) => ({
      path: movedTo.get(file) ?? file,
      rewrite: (text: string) => rewriteLinks(text, file, proposal.moves, proposal.files),
    }));
}

/**
 * `text` (the note that was at `notePath`) with its links following `moves`, one after another,
 * over the vault `files` as it was; null when no link changes. `count` is how many links read
 * differently in the end (a folder's move may touch one link twice and leave it as it was).
 */
export function rewriteLinks(
  text: string,
  notePath: string,
  moves: readonly FileMove[],
  files: readonly string[],
): { text: string; count: number } | null {
  // A note that names none of the moved files, and did not move itself, is left unparsed.
  const lower = text.toLowerCase();
  if (!moves.some((move) => move.from === notePath || mayName(lower, move.from))) return null;
  let current = text;
  let note = notePath;
  let list = files;
  for (const move of moves) {
    if (note === move.from || mayName(lower, move.from)) {
      current = applyEdits(current, editsForMove(current, note, move, list));
      if (note === move.from) note = move.to;
    }
    list = list.map((file) => (file === move.from ? move.to : file));
  }
  if (current === text) return null;
  const before = noteLinks(text);
  const after = noteLinks(current);
  const count = after.filter(
    (link, i) =>
      current.slice(link.targetFrom, link.targetTo) !==
      text.slice(before[i]?.targetFrom, before[i]?.targetTo),
  ).length;
  return { text: current, count };
}

/** Whether a note's lower-cased text may hold a link to `file`: its name, or any percent-encoding. */
function mayName(lower: string, file: string): boolean {
  const name = file.slice(file.lastIndexOf('/') + 1).toLowerCase();
  const stem = name.replace(/\.md$/, '');
  return lower.includes(stem) || lower.includes('%');
}
