import { describe, expect, it } from 'vitest';
import type { UiSettings } from '../../../protocol/panel-protocol.js';
import { appearanceOf, CJK_FACE, fontList, fontStacks } from './appearance.js';

const defaults = { text: 'system-ui, sans-serif', mono: 'monospace' };

describe('fontStacks', () => {
  it('keeps the page defaults when no font is set', () => {
    expect(fontStacks({ fontFamily: '', cjkFontFamily: '' }, defaults)).toEqual({
      text: null,
      mono: null,
      faces: '',
    });
  });

  it('puts the text font before the defaults', () => {
    expect(fontStacks({ fontFamily: 'Georgia', cjkFontFamily: '' }, defaults).text).toBe(
      'Georgia, system-ui, sans-serif',
    );
  });

  it('puts the CJK face first in both stacks, limited to CJK code points, so a Latin font with CJK glyphs cannot take them', () => {
    const stacks = fontStacks(
      { fontFamily: 'Noto Sans CJK TC', cjkFontFamily: 'Noto Serif CJK TC' },
      defaults,
    );
    expect(stacks.text).toBe(`"${CJK_FACE}", Noto Sans CJK TC, system-ui, sans-serif`);
    expect(stacks.mono).toBe(`"${CJK_FACE}", monospace`);
    expect(stacks.faces).toContain('src: local("Noto Serif CJK TC"), local("Noto Serif CJK TC Regular")');
    expect(stacks.faces).toContain('local("Noto Serif CJK TC Bold")');
    expect(stacks.faces).toMatch(/unicode-range: [^;]*U\+4E00-9FFF/);
    expect(stacks.faces).not.toMatch(/U\+0000|U\+0041/);
  });

  it('keeps a typed name from breaking out of the CSS', () => {
    const stacks = fontStacks(
      { fontFamily: 'Evil; } body { x: url(a)', cjkFontFamily: 'A") } * { color: red' },
      defaults,
    );
    expect(stacks.text).not.toMatch(/[;{}()]/);
    expect(stacks.faces).toMatch(/local\("A[^"(){};]*color red"\)/);
    expect(stacks.faces.match(/\{/g)).toHaveLength(2);
  });
});

describe('fontList', () => {
  it('keeps names, quotes and commas, and drops empty entries', () => {
    expect(fontList(' "Iowan Old Style" , serif ,, ')).toBe('"Iowan Old Style", serif');
    expect(fontList('思源宋體, serif')).toBe('思源宋體, serif');
  });
});

describe('appearanceOf', () => {
  it('reads the Editor group, and its defaults without one', () => {
    expect(appearanceOf(null)).toMatchObject({ theme: 'system', fontSize: 16, spellCheck: false });
    const settings = {
      file: '',
      groups: [
        {
          id: 'vmark',
          title: 'Editor',
          settings: [
            {
              key: 'editor.theme',
              type: 'enum',
              title: 'Theme',
              default: 'system',
              value: 'dark',
              stored: 'valid',
            },
            {
              key: 'editor.spellCheck',
              type: 'boolean',
              title: 'S',
              default: false,
              value: true,
              stored: 'valid',
            },
          ],
        },
      ],
    } satisfies UiSettings;
    expect(appearanceOf(settings)).toMatchObject({ theme: 'dark', spellCheck: true, lineWidth: 760 });
  });
});
