import { describe, expect, it } from 'vitest';
import { WHOLE_TEXT } from '../segments.js';
import { removeTrailingSpaces } from './trailing-spaces.js';

const middle = { ...WHOLE_TEXT, atDocumentStart: false, atDocumentEnd: false };

describe('removeTrailingSpaces', () => {
  it('removes spaces and tabs at line ends', () => {
    expect(removeTrailingSpaces('keep \ntrim\t\n   \nmore', middle)).toBe('keep\ntrim\n\nmore');
    expect(removeTrailingSpaces('a  \r\nb', middle)).toBe('a\r\nb');
  });

  it('ends the document with the one newline it had', () => {
    expect(removeTrailingSpaces('中文English\n', WHOLE_TEXT)).toBe('中文English\n');
    expect(removeTrailingSpaces('中文\n\n\n', WHOLE_TEXT)).toBe('中文\n');
    expect(removeTrailingSpaces('中文  ', WHOLE_TEXT)).toBe('中文');
    expect(removeTrailingSpaces('中文\r\n\r\n', WHOLE_TEXT)).toBe('中文\r\n');
  });

  it('leaves a whitespace-only document empty, and a newline after protected text', () => {
    expect(removeTrailingSpaces('   \n\n   ', WHOLE_TEXT)).toBe('');
    expect(removeTrailingSpaces('\n\n', { ...WHOLE_TEXT, atDocumentStart: false })).toBe('\n');
  });

  it('leaves a segment in the middle of a line alone at its end', () => {
    expect(removeTrailingSpaces('中文  ', middle)).toBe('中文  ');
  });
});
