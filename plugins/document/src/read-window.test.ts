import type { DocumentSnapshot } from '@vmark/sdk';
import { describe, expect, it } from 'vitest';
import { documentWindow, lengthArg, offsetArg } from './read-window.js';

const snapshot = (content: string, conflict?: DocumentSnapshot['conflict']): DocumentSnapshot => ({
  id: 'doc-1',
  filePath: '/w/a.md',
  content,
  revision: 'rev-AAAAAAAA',
  kind: 'markdown',
  dirty: false,
  ...(conflict ? { conflict } : {}),
});

describe('documentWindow', () => {
  it('cuts [offset, offset + length) and says where the next window starts', () => {
    const window = documentWindow(snapshot('0123456789'), 2, 5);
    expect(window).toMatchObject({
      content: '23456',
      revision: 'rev-AAAAAAAA',
      offset: 2,
      length: 5,
      total_length: 10,
      next_offset: 7,
    });
    expect(window.window_note).toMatch(
      /^Characters 2 to 7 of 10 \(UTF-16 code units\); read on with offset: 7\./,
    );
    expect(window.window_note).toMatch(/no basis for a whole write/);
    expect(window.window_note).toMatch(/selection\.set/);
  });

  it('stops at the end, without next_offset, and reads to the end without a length', () => {
    const end = documentWindow(snapshot('0123456789'), 7, 100);
    expect(end).toMatchObject({ content: '789', offset: 7, length: 3, total_length: 10 });
    expect(end).not.toHaveProperty('next_offset');
    expect(end.window_note).toMatch(/this window reaches the end/);
    expect(documentWindow(snapshot('0123456789'), 4, undefined)).toMatchObject({
      content: '456789',
      length: 6,
    });
    expect(documentWindow(snapshot('0123'), 4, 10)).toMatchObject({
      content: '',
      length: 0,
      total_length: 4,
    });
    expect(documentWindow(snapshot(''), 0, 10)).toMatchObject({ content: '', length: 0, total_length: 0 });
  });

  it('counts UTF-16 code units, as JavaScript and selection ranges do', () => {
    const text = '中文😀ab';
    expect(documentWindow(snapshot(text), 0, 4)).toMatchObject({ content: '中文😀', total_length: 6 });
    expect(documentWindow(snapshot(text), 4, 2)).toMatchObject({ content: 'ab' });
  });

  it('refuses a window edge inside a surrogate pair, naming the positions that work', () => {
    const text = 'a😀b';
    expect(() => documentWindow(snapshot(text), 2, 1)).toThrow(
      'offset 2 falls inside a character outside the BMP (the surrogate pair at 1); use offset 1 or 3',
    );
    expect(() => documentWindow(snapshot(text), 0, 2)).toThrow(
      'the window would end at 2, inside a character outside the BMP (the surrogate pair at 1); use length 1 or 3',
    );
    expect(() => documentWindow(snapshot(text), 1, 1)).toThrow(/use length 2$/);
    expect(() => documentWindow(snapshot(text), 2, 1)).toThrow(
      expect.objectContaining({ name: 'ArgumentError' }),
    );
  });

  it('refuses an offset past the end', () => {
    expect(() => documentWindow(snapshot('abc'), 4, 1)).toThrow(
      'offset 4 is past the end of the document (total_length 3)',
    );
  });

  it('keeps a conflict’s reason and message, and says that disk_content needs a whole read', () => {
    const window = documentWindow(
      snapshot('mine', {
        reason: 'changed-on-disk',
        message: 'The file changed on disk.',
        diskContent: 'theirs',
        diskSha256: 'x',
      }),
      0,
      2,
    );
    expect(window.conflict).toEqual({
      reason: 'changed-on-disk',
      message:
        'The file changed on disk. A window leaves disk_content out: read the document whole to see it.',
    });
  });
});

describe('offset and length arguments', () => {
  it.each([-1, 1.5, '3', null, Number.NaN, Infinity])('refuse %j', (value) => {
    expect(offsetArg.safeParse(value).error?.issues[0]?.message).toMatch(
      /^offset must be an integer of 0 or more/,
    );
    expect(lengthArg.safeParse(value).error?.issues[0]?.message).toMatch(
      /^length must be an integer of 1 or more/,
    );
  });

  it('take 0 as an offset, not as a length', () => {
    expect(offsetArg.safeParse(0).success).toBe(true);
    expect(lengthArg.safeParse(0).error?.issues[0]?.message).toMatch(
      /^length must be an integer of 1 or more/,
    );
  });
});
