import * as library from '@codemirror/collab';
import { defineLanguageFacet, Language } from '@codemirror/language';
import { ChangeSet, EditorState, type Extension } from '@codemirror/state';
import { parser } from '@vmark/sdk/markdown';
import { describe, expect, it } from 'vitest';
import * as own from './collab-state.js';

const markdown = new Language(defineLanguageFacet(), parser, [], 'markdown');

interface Collab {
  collab(config: { startVersion: number; clientID: string }): Extension;
  receiveUpdates: typeof own.receiveUpdates;
  sendableUpdates: typeof own.sendableUpdates;
  getSyncedVersion: typeof own.getSyncedVersion;
}

/** One editor, driven step by step: typing, its own changes confirmed, other writers' changes. */
class Editor {
  state: EditorState;
  constructor(
    readonly impl: Collab,
    doc: string,
  ) {
    this.state = EditorState.create({
      doc,
      extensions: [impl.collab({ startVersion: 0, clientID: 'me' }), markdown],
    });
  }
  type(at: number, text: string): void {
    this.state = this.state.update({ changes: { from: at, insert: text } }).state;
  }
  /** The host confirms the first `count` unconfirmed changes, after `others` by other writers. */
  confirm(count: number, others: readonly ChangeSet[] = []): void {
    const updates = [
      ...others.map((changes) => ({ changes, clientID: 'other' })),
      ...this.impl.sendableUpdates(this.state).slice(0, count),
    ];
    this.state = this.impl.receiveUpdates(this.state, updates).state;
  }
  get seen(): unknown {
    return {
      doc: this.state.doc.toString(),
      version: this.impl.getSyncedVersion(this.state),
      pending: this.impl.sendableUpdates(this.state).map((u): unknown => [u.clientID, u.changes.toJSON()]),
    };
  }
}

/** How many distinct editor states can be reached from `root` through object properties. */
function reachableStates(root: object): number {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  let states = 0;
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || seen.has(value) || ArrayBuffer.isView(value)) continue;
    seen.add(value);
    if (value instanceof EditorState) states++;
    if (value instanceof Map) for (const entry of value) stack.push(entry);
    else for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
  }
  return states;
}

describe('collab state', () => {
  it('keeps, confirms and rebases local changes as @codemirror/collab does', () => {
    const ours = new Editor(own, '# Title\n\nText.\n');
    const theirs = new Editor(library, '# Title\n\nText.\n');
    const other = (doc: number, from: number, insert: string): ChangeSet =>
      ChangeSet.of({ from, insert }, doc);
    const steps: ((e: Editor) => void)[] = [
      (e) => e.type(15, 'a'),
      (e) => e.type(16, 'b'),
      (e) => e.confirm(1),
      (e) => e.type(0, 'c'),
      // Another writer's change before this editor's: the pending ones move over it.
      (e) => e.confirm(0, [other(16, 2, 'XY')]),
      (e) => e.confirm(1, [other(18, 5, 'Z')]),
      (e) => e.type(3, 'd'),
      (e) => e.confirm(2),
      (e) => e.confirm(0, [other(22, 22, '\nend')]),
    ];
    for (const step of steps) {
      step(ours);
      step(theirs);
      expect(ours.seen).toEqual(theirs.seen);
    }
    expect(ours.seen).toMatchObject({ version: 7, pending: [] });
  });

  it('does not keep earlier states reachable from the current one', () => {
    const ours = new Editor(own, '# Title\n\n');
    const theirs = new Editor(library, '# Title\n\n');
    for (const editor of [ours, theirs])
      for (let i = 0; i < 40; i++) {
        editor.type(editor.state.doc.length, 'x');
        editor.confirm(1);
      }
    // The state itself and the one the parse state was made for (the last change's).
    expect(reachableStates(ours.state)).toBeLessThanOrEqual(2);
    // The control: the library's unconfirmed change keeps its transaction, and so every state before.
    expect(reachableStates(theirs.state)).toBeGreaterThan(40);
  });

  it('applies a change the host confirmed as a local one, confirmed in the same transaction', () => {
    const one = new Editor(own, '# Title\n');
    const two = new Editor(own, '# Title\n');
    const host = ChangeSet.of({ from: 2, to: 7, insert: 'Heading' }, 8);
    // As before: a local change, then confirmed as this editor's own.
    two.state = two.state.update({ changes: host }).state;
    two.confirm(1);
    one.state = one.state.update({ changes: host, annotations: own.confirmedByHost(one.state) }).state;
    expect(one.seen).toEqual(two.seen);
    expect(one.seen).toMatchObject({ doc: '# Heading\n', version: 1, pending: [] });

    // With a keystroke unconfirmed the host's change would go after it: refused.
    one.type(0, 'x');
    expect(() => own.confirmedByHost(one.state)).toThrow(/before unconfirmed/);
  });
});
