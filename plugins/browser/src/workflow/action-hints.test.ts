import { describe, expect, it } from 'vitest';
import { actionHints } from './action-hints.js';
import { parseWorkflow } from './parse-workflow.js';

const hintsOf = (body: string) => {
  const parsed = parseWorkflow(`---\nsite: s\ninputs: [q, my-q]\n---\n${body}`);
  if (!parsed.ok) throw new Error('the sample must parse');
  return actionHints(parsed.workflow).map(({ line, code, severity }) => [line, code, severity]);
};

describe('actionHints', () => {
  it('says nothing of executable actions or of other kinds', () => {
    expect(
      hintsOf('action: navigate to https://a.example/\naction: click "Go" (button)\ngoal: anything\n'),
    ).toEqual([]);
  });

  it('marks prose as pausing for the AI, and broken grammar as stopping the run', () => {
    expect(
      hintsOf(
        '4. action: click 回复 and submit\naction: click "Go" now\naction: type {my-q} into "Search"\n',
      ),
    ).toEqual([
      [5, 'not-executable', 'info'],
      [6, 'malformed-target', 'warning'],
      [7, 'malformed-value', 'warning'],
    ]);
  });

  it('words the pause so the author knows what a run will do', () => {
    const parsed = parseWorkflow('---\nsite: s\n---\naction: submit it\n');
    expect(parsed.ok && actionHints(parsed.workflow)[0]!.message).toMatch(
      /^A run pauses here for the AI: this action is not in the executable grammar \(/,
    );
  });
});
