import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILE_NAME_AT_DOT, markFileNames } from './file-names.js';

/** The marked substrings of `text`. */
function marked(text: string): string[] {
  const mask = new Uint8Array(text.length);
  markFileNames(text, mask);
  return [...text.matchAll(/./gsu)]
    .map((m) => (mask[m.index] === 1 ? m[0] : '\n'))
    .join('')
    .split('\n')
    .filter(Boolean);
}

describe('markFileNames', () => {
  it('marks an extension after a name, CJK or Latin', () => {
    expect(marked('notes/中文筆記.md的內容')).toEqual(['.md']);
    expect(marked('圖1.png和README.MD')).toEqual(['.png', '.MD']);
    expect(marked('archive.tar.gz')).toEqual(['.tar.gz']);
    expect(marked('a/b.c和main.h')).toEqual(['.c', '.h']);
  });

  it('takes the whole extension: `.markdown`, `.json5`, not a prefix of a longer word', () => {
    expect(marked('筆記.markdown')).toEqual(['.markdown']);
    expect(marked('設定.json5')).toEqual(['.json5']);
    expect(marked('它.mdfile')).toEqual([]);
    expect(marked('它.Markdown')).toEqual([]);
  });

  it('marks ./ and ../ before a name, not the end of an ellipsis', () => {
    expect(marked('看./x.md')).toEqual(['.', '.md']);
    expect(marked('在../docs')).toEqual(['..']);
    expect(marked('在.\\中文')).toEqual(['.']);
    expect(marked('等等.../x')).toEqual([]);
    expect(marked('好./ 然後')).toEqual([]);
  });

  it('marks a dot folder after CJK or a separator, not a domain', () => {
    expect(marked('看.github/workflows')).toEqual(['.github']);
    expect(marked('在a/.vscode/settings')).toEqual(['.vscode']);
    expect(marked('見example.com/docs')).toEqual([]);
  });

  it('marks nothing in prose', () => {
    expect(marked('這是一句話.下一句. 還有... 以及3.14和v1.2')).toEqual([]);
    expect(marked('No dots here')).toEqual([]);
  });
});

describe('markFileNames passing over dots no alternative can start at', () => {
  /** The pattern tried at every dot, as before the gate. */
  function ungated(text: string): Uint8Array {
    const mask = new Uint8Array(text.length);
    const pattern = new RegExp(FILE_NAME_AT_DOT.source, FILE_NAME_AT_DOT.flags);
    let dot = text.indexOf('.');
    while (dot !== -1) {
      pattern.lastIndex = dot;
      const match = pattern.exec(text);
      if (match) {
        mask.fill(1, dot, dot + match[0].length);
        dot = text.indexOf('.', dot + match[0].length);
      } else {
        dot = text.indexOf('.', dot + 1);
      }
    }
    return mask;
  }

  it('marks what trying the pattern at every dot marks', () => {
    const piece = fc.constantFrom(
      ...'.。/\\_-+@~ aZ09中文\n'.split(''),
      '.md',
      '.PNG',
      '..',
      './',
      '../',
      '.github/',
      'x.json5',
      '筆記.txt',
      '...',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (parts) => {
        const text = parts.join('');
        const mask = new Uint8Array(text.length);
        markFileNames(text, mask);
        expect([...mask]).toEqual([...ungated(text)]);
      }),
      { numRuns: 3000 },
    );
  });
});
