import { describe, expect, it } from 'vitest';
import { type CommandContext, holds, parseWhen } from './when-clause.js';

const context: CommandContext = { editorFocus: true, activeKind: 'markdown', mode: 'source' };

function check(text: string, at: CommandContext = context): boolean {
  const parsed = parseWhen(text);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return holds(parsed.clause, at);
}

describe('when clauses', () => {
  it('tests keys, their negation and comparisons, all of them together', () => {
    expect(check('editorFocus')).toBe(true);
    expect(check('!editorFocus')).toBe(false);
    expect(check('activeKind == markdown && mode == source')).toBe(true);
    expect(check('activeKind == markdown && mode != source')).toBe(false);
    expect(check('activeKind', { ...context, activeKind: '' })).toBe(false);
  });

  it('refuses unknown keys and what is not a term', () => {
    expect(parseWhen('sidebarVisible')).toEqual({ problem: expect.stringContaining('names no context key') });
    expect(parseWhen('editorFocus || mode == source')).toEqual({
      problem: expect.stringContaining('context key'),
    });
    expect(parseWhen('')).toEqual({ problem: expect.stringContaining('names no context key') });
    expect(parseWhen('mode == ')).toEqual({ problem: expect.any(String) });
  });
});
