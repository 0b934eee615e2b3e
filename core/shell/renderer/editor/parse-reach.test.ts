import { defineLanguageFacet, Language, syntaxTree, syntaxTreeAvailable } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { GFM, parser } from '@vmark/sdk/markdown';
import { describe, expect, it } from 'vitest';
import { type IdleScheduler, ParseReach, type ReachTarget } from './parse-reach.js';

const markdown = new Language(defineLanguageFacet(), parser.configure(GFM), [], 'markdown');

/** A note long enough that creating its state leaves the parse far short of its end. */
function note(sections: number): string {
  const parts: string[] = [];
  for (let i = 0; i < sections; i++)
    parts.push(
      `## Section ${i}`,
      '',
      `Some **strong** text with [a link](https://x.test/${i}).`,
      '',
      '- a',
      '- b',
      '',
    );
  return parts.join('\n');
}

/** An editor whose state moves through real transactions; idle slices run when the test says. */
function editor(doc: string, running: () => boolean) {
  let state = EditorState.create({ doc, extensions: markdown });
  const slices: ((msLeft: number) => void)[] = [];
  const idle: IdleScheduler = (slice) => {
    slices.push(slice);
    return () => slices.splice(slices.indexOf(slice), 1);
  };
  let published = 0;
  const target: ReachTarget = {
    get state() {
      return state;
    },
    viewportTo: doc.length,
    parserRunning: running,
    publish: () => {
      published++;
      state = state.update({}).state;
    },
  };
  const reach = new ParseReach(target, idle);
  return {
    reach,
    slices,
    state: () => state,
    published: () => published,
    /** Runs the slices scheduled so far, as the page's idle time would; false when none was. */
    runIdle: () => {
      const due = slices.splice(0);
      for (const slice of due) slice(50);
      return due.length > 0;
    },
  };
}

describe('ParseReach', () => {
  const doc = note(5_000);

  it('parses on in idle slices until the tree reaches the viewport, then publishes it once', () => {
    const page = editor(doc, () => false);
    expect(syntaxTreeAvailable(page.state(), doc.length)).toBe(false);
    let slices = 0;
    while (page.runIdle()) slices++;
    expect(slices).toBeGreaterThan(1);
    expect(syntaxTreeAvailable(page.state(), doc.length)).toBe(true);
    expect(syntaxTree(page.state()).length).toBe(doc.length);
    expect(page.published()).toBe(1);
  });

  it("leaves the parse to CodeMirror's worker while that still runs", () => {
    let running = true;
    const page = editor(doc, () => running);
    const before = syntaxTree(page.state());
    for (let i = 0; i < 5; i++) expect(page.runIdle()).toBe(true);
    expect(syntaxTree(page.state())).toBe(before);
    expect(page.published()).toBe(0);
    running = false;
    while (page.runIdle());
    expect(syntaxTreeAvailable(page.state(), doc.length)).toBe(true);
  });

  it('schedules nothing once the tree reaches the viewport, and nothing after destroy', () => {
    const small = editor(note(3), () => false);
    expect(small.slices).toHaveLength(0);
    const page = editor(doc, () => false);
    expect(page.slices).toHaveLength(1);
    page.reach.destroy();
    expect(page.slices).toHaveLength(0);
  });
});
