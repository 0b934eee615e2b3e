import { describe, expect, it } from 'vitest';
import { parseActionText } from './action-text.js';

const codeOf = (text: string) => {
  const result = parseActionText(text);
  return result.ok ? 'ok' : result.code;
};

describe('parseActionText: the executable grammar of §4.2', () => {
  it('reads the executable example of §4.3, step by step', () => {
    expect(parseActionText('navigate to https://example.com/search')).toEqual({
      ok: true,
      command: { verb: 'navigate', url: 'https://example.com/search' },
    });
    expect(parseActionText('type {query} into "Search" (textbox)')).toEqual({
      ok: true,
      command: {
        verb: 'type',
        value: { kind: 'input', name: 'query' },
        target: { name: 'Search', role: 'textbox' },
      },
    });
    expect(parseActionText('click "Go" (button)')).toEqual({
      ok: true,
      command: { verb: 'click', target: { name: 'Go', role: 'button' } },
    });
  });

  it('takes JSON escapes in names and literals, hyphenated roles, and no role', () => {
    expect(parseActionText('click "Say \\"hi\\"\\n\\u56de\\u590d" (menuitem-radio)')).toEqual({
      ok: true,
      command: { verb: 'click', target: { name: 'Say "hi"\n回复', role: 'menuitem-radio' } },
    });
    expect(parseActionText('type "a \\\\ b" into "Note"')).toEqual({
      ok: true,
      command: { verb: 'type', value: { kind: 'literal', text: 'a \\ b' }, target: { name: 'Note' } },
    });
    expect(parseActionText('click "Go"(button)')).toMatchObject({ ok: true });
  });

  it('calls free prose, an unquoted name, a bare navigate and an unquoted value not executable', () => {
    for (const text of [
      'click 回复 and submit',
      'open my dashboard',
      'navigate',
      'navigate to',
      'navigate  to https://x.example/',
      'Click "Go" (button)',
      'type hello into "Search"',
      'submit the form',
    ])
      expect([text, codeOf(text)]).toEqual([text, 'not-executable']);
    const prose = parseActionText('click 回复 and submit');
    expect(prose.ok ? '' : prose.message).toMatch(/^not in the executable grammar/);
  });

  it('calls a broken quoted target malformed-target', () => {
    for (const text of [
      'click ""',
      'click "Go',
      'click "Go" now',
      'click "Go" (Button)',
      'click "Go" (button) x',
      'click "bad \\q escape"',
      'click "raw \u0001 control"',
      'type {q} into Search',
      'type {q} into ""',
      'type {q} into "Go" (-x)',
    ])
      expect([text, codeOf(text)]).toEqual([text, 'malformed-target']);
  });

  it('calls a broken value, or a missing " into ", malformed-value', () => {
    for (const text of [
      'type "" into "Search"',
      'type "open into "Search"',
      'type "\\x41" into "Search"',
      'type {my-input} into "Search"',
      'type {} into "Search"',
      'type {q} "Search"',
      'type "hello"',
      'type {q}into "Search"',
    ])
      expect([text, codeOf(text)]).toEqual([text, 'malformed-value']);
  });
});
