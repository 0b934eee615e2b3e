import { describe, expect, it } from 'vitest';
import {
  type BlockFormat,
  type Edit,
  type InlineMark,
  mapPos,
  type Range,
  toggleBlock,
  toggleCodeBlock,
  toggleInline,
  toggleLink,
  wordAt,
} from './markdown-format.js';

/*
 * Cases are written as the person sees them: `¦` is the cursor, `‹…›` a selection made forwards
 * (anchor at ‹, head at ›), `›…‹` one made backwards.
 */
function parse(marked: string): { text: string; range: Range } {
  const cursor = marked.indexOf('¦');
  if (cursor !== -1) return { text: marked.replace('¦', ''), range: { anchor: cursor, head: cursor } };
  const open = marked.indexOf('‹');
  const close = marked.indexOf('›');
  const text = marked.replace('‹', '').replace('›', '');
  if (open < close) return { text, range: { anchor: open, head: close - 1 } };
  return { text, range: { anchor: open - 1, head: close } };
}

function show(text: string, range: Range): string {
  if (range.anchor === range.head) return text.slice(0, range.head) + '¦' + text.slice(range.head);
  const [a, b] = range.anchor < range.head ? ['‹', '›'] : ['›', '‹'];
  const lo = Math.min(range.anchor, range.head);
  const hi = Math.max(range.anchor, range.head);
  return text.slice(0, lo) + a + text.slice(lo, hi) + b + text.slice(hi);
}

function apply(text: string, edit: Edit): string {
  let out = text;
  for (const change of [...edit.changes].sort((x, y) => y.from - x.from)) {
    out = out.slice(0, change.from) + change.insert + out.slice(change.to);
  }
  return show(out, edit.range);
}

const inline = (marked: string, mark: InlineMark) => {
  const { text, range } = parse(marked);
  return apply(text, toggleInline(text, range, mark));
};
const block = (marked: string, format: BlockFormat) => {
  const { text, range } = parse(marked);
  return apply(text, toggleBlock(text, range, format));
};
const link = (marked: string) => {
  const { text, range } = parse(marked);
  return apply(text, toggleLink(text, range));
};
const codeBlock = (marked: string) => {
  const { text, range } = parse(marked);
  return apply(text, toggleCodeBlock(text, range));
};

describe('bold, italic, code and strikethrough', () => {
  it('wraps a selection and keeps it on the text', () => {
    expect(inline('a ‹word› b', 'bold')).toBe('a **‹word›** b');
    expect(inline('a ‹word› b', 'italic')).toBe('a *‹word›* b');
    expect(inline('a ‹word› b', 'code')).toBe('a `‹word›` b');
    expect(inline('a ‹word› b', 'strikethrough')).toBe('a ~~‹word›~~ b');
  });

  it('keeps a backwards selection backwards', () => {
    expect(inline('a ›word‹ b', 'bold')).toBe('a **›word‹** b');
  });

  it('takes the marks away from a marked selection, whichever part of the span is selected', () => {
    expect(inline('a **‹word›** b', 'bold')).toBe('a ‹word› b');
    expect(inline('a ‹**word**› b', 'bold')).toBe('a ‹word› b');
    expect(inline('a **two ‹words›** b', 'bold')).toBe('a two ‹words› b');
    expect(inline('a `‹x = 1›` b', 'code')).toBe('a ‹x = 1› b');
    expect(inline('~~‹gone›~~', 'strikethrough')).toBe('‹gone›');
  });

  it('leaves the outer spaces of a selection outside the marks', () => {
    expect(inline('a‹ word ›b', 'bold')).toBe('a **‹word›** b');
  });

  it('wraps each line of a selection over several lines', () => {
    expect(inline('‹one\n\ntwo›', 'italic')).toBe('*‹one*\n\n*two›*');
  });

  it('does nothing to a selection of spaces only', () => {
    expect(inline('a‹   ›b', 'bold')).toBe('a‹   ›b');
  });

  it('tells nested marks apart: bold off inside bold italic leaves italic, and the other way round', () => {
    expect(inline('***‹both›***', 'bold')).toBe('*‹both›*');
    expect(inline('***‹both›***', 'italic')).toBe('**‹both›**');
    expect(inline('**bold *‹it›* bold**', 'italic')).toBe('**bold ‹it› bold**');
    expect(inline('**bold *‹it›* bold**', 'bold')).toBe('bold *‹it›* bold');
  });

  it('adds italic to a bold selection rather than taking bold away', () => {
    expect(inline('**‹word›**', 'italic')).toBe('***‹word›***');
  });

  it('wraps the word the cursor is in, the cursor staying in it', () => {
    expect(inline('say hel¦lo now', 'bold')).toBe('say **hel¦lo** now');
    expect(inline('say ¦hello now', 'italic')).toBe('say *¦hello* now');
    expect(inline('say hello¦ now', 'code')).toBe('say `hello¦` now');
  });

  it('takes the marks away when the cursor is inside a marked span', () => {
    expect(inline('say **hel¦lo** now', 'bold')).toBe('say hel¦lo now');
    expect(inline('say *hel¦lo* now', 'italic')).toBe('say hel¦lo now');
    expect(inline('**two wo¦rds**', 'bold')).toBe('two wo¦rds');
  });

  it('inserts an empty pair with the cursor between, and a second press takes it away', () => {
    expect(inline('end ¦', 'bold')).toBe('end **¦**');
    expect(inline('end **¦**', 'bold')).toBe('end ¦');
    expect(inline('¦', 'italic')).toBe('*¦*');
    expect(inline('¦', 'code')).toBe('`¦`');
  });

  it('wraps a CJK word, not the whole run of CJK text', () => {
    const out = inline('我們今¦天去公園', 'bold');
    expect(out.replace(/\*\*|¦/g, '')).toBe('我們今天去公園');
    expect(out).toMatch(/\*\*[^*]*¦[^*]*\*\*/);
    expect(out).not.toBe('**我們今¦天去公園**');
  });

  it('wraps and unwraps a CJK selection', () => {
    expect(inline('中文‹粗體›字', 'bold')).toBe('中文**‹粗體›**字');
    expect(inline('中文**‹粗體›**字', 'bold')).toBe('中文‹粗體›字');
  });

  it('works on a list item and a heading line without touching their marks', () => {
    expect(inline('- item ‹one›', 'bold')).toBe('- item **‹one›**');
    expect(inline('## Ti¦tle', 'italic')).toBe('## *Ti¦tle*');
  });
});

describe('links', () => {
  it('links a selection, the cursor where the address goes', () => {
    expect(link('see ‹the docs› here')).toBe('see [the docs](¦) here');
  });

  it('links the word at the cursor, or inserts an empty link', () => {
    expect(link('see do¦cs here')).toBe('see [docs](¦) here');
    expect(link('see ¦')).toBe('see [¦]()');
  });

  it('takes a link away, keeping its text', () => {
    expect(link('see [the do¦cs](https://x.test) here')).toBe('see the do¦cs here');
  });
});

describe('headings, lists, tasks and quotes', () => {
  it('sets, changes and removes a heading level', () => {
    expect(block('Tit¦le', { type: 'heading', level: 2 })).toBe('## Tit¦le');
    expect(block('# Tit¦le', { type: 'heading', level: 3 })).toBe('### Tit¦le');
    expect(block('## Tit¦le', { type: 'heading', level: 2 })).toBe('Tit¦le');
    expect(block('###### Tit¦le', { type: 'paragraph' })).toBe('Tit¦le');
    expect(block('¦Title', { type: 'heading', level: 1 })).toBe('# ¦Title');
  });

  it('leaves a paragraph a paragraph', () => {
    expect(block('Tit¦le', { type: 'paragraph' })).toBe('Tit¦le');
  });

  it('makes the selected lines a bullet list, and back, skipping blank lines', () => {
    expect(block('‹one\ntwo\n\nthree›', { type: 'bullet' })).toBe('- ‹one\n- two\n\n- three›');
    expect(block('‹- one\n- two›', { type: 'bullet' })).toBe('‹one\ntwo›');
  });

  it('numbers the selected lines, turning bullets into numbers', () => {
    expect(block('‹- one\n- two\n- three›', { type: 'numbered' })).toBe('1. ‹one\n2. two\n3. three›');
    expect(block('‹1. one\n2. two›', { type: 'numbered' })).toBe('‹one\ntwo›');
  });

  it('makes a mixed selection all of one list kind first', () => {
    expect(block('‹- one\ntwo›', { type: 'bullet' })).toBe('- ‹one\n- two›');
  });

  it('keeps a nested item indented', () => {
    expect(block('‹- one\n  - two›', { type: 'numbered' })).toBe('1. ‹one\n  2. two›');
  });

  it('makes tasks, keeps a checked one checked, and removes them', () => {
    expect(block('b¦uy milk', { type: 'task' })).toBe('- [ ] b¦uy milk');
    expect(block('- b¦uy milk', { type: 'task' })).toBe('- [ ] b¦uy milk');
    expect(block('‹- [x] done\n- [ ] open›', { type: 'task' })).toBe('‹done\nopen›');
    expect(block('‹- [x] done\n- open›', { type: 'task' })).toBe('- [x] ‹done\n- [ ] open›');
  });

  it('turns a task into a bullet', () => {
    expect(block('- [ ] t¦ask', { type: 'bullet' })).toBe('- t¦ask');
  });

  it('quotes every selected line, blank ones too, and unquotes', () => {
    expect(block('‹one\n\ntwo›', { type: 'quote' })).toBe('> ‹one\n>\n> two›');
    expect(block('‹> one\n>\n> two›', { type: 'quote' })).toBe('‹one\n\ntwo›');
  });

  it('works on CJK lines', () => {
    expect(block('‹買牛奶\n寫報告›', { type: 'task' })).toBe('- [ ] ‹買牛奶\n- [ ] 寫報告›');
  });
});

describe('code blocks', () => {
  it('fences the selected lines', () => {
    expect(codeBlock('‹a = 1\nb = 2›')).toBe('```\n‹a = 1\nb = 2›\n```');
  });

  it('inserts an empty block on a blank line, the cursor inside', () => {
    expect(codeBlock('text\n¦\nmore')).toBe('text\n```\n¦\n```\nmore');
  });

  it('takes the fences away from inside the block, and with the fences selected', () => {
    expect(codeBlock('```\na = ¦1\n```')).toBe('a = ¦1');
    expect(codeBlock('‹```js\na = 1\n```›\nafter')).toBe('‹a = 1›\nafter');
  });
});

describe('the helpers', () => {
  it('maps a position over insertions, before or after them', () => {
    const changes = [{ from: 2, to: 2, insert: 'xx' }];
    expect(mapPos(changes, 2)).toBe(2);
    expect(mapPos(changes, 2, true)).toBe(4);
    expect(mapPos(changes, 5)).toBe(7);
    expect(mapPos([{ from: 1, to: 4, insert: '' }], 3)).toBe(1);
  });

  it('finds no word in spaces or punctuation', () => {
    expect(wordAt('a  ,  b', 3)).toBeNull();
    expect(wordAt('hello', 5)).toEqual({ from: 0, to: 5 });
  });
});
