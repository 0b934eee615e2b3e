import { describe, expect, it } from 'vitest';
import { keyStringOf, parseKeyString } from './key-string.js';

const press = (
  key: string,
  code: string,
  mods: Partial<Record<'ctrl' | 'alt' | 'shift' | 'meta', boolean>> = {},
) => ({
  key,
  code,
  ctrlKey: mods.ctrl ?? false,
  altKey: mods.alt ?? false,
  shiftKey: mods.shift ?? false,
  metaKey: mods.meta ?? false,
});

describe('parseKeyString', () => {
  it('orders modifiers and resolves Mod per platform', () => {
    expect(parseKeyString('shift+mod+p', 'other')).toEqual({ key: 'Ctrl+Shift+P' });
    expect(parseKeyString('Mod+Shift+P', 'mac')).toEqual({ key: 'Shift+Meta+P' });
    expect(parseKeyString('Cmd+,', 'mac')).toEqual({ key: 'Meta+,' });
    expect(parseKeyString('Ctrl++', 'other')).toEqual({ key: 'Ctrl++' });
    expect(parseKeyString('f5', 'other')).toEqual({ key: 'F5' });
  });

  it('says what is wrong with a bad key string', () => {
    expect(parseKeyString('Hyper+P', 'other')).toEqual({ problem: expect.stringContaining('"Hyper"') });
    expect(parseKeyString('Ctrl+Control+P', 'other')).toEqual({ problem: expect.stringContaining('twice') });
    expect(parseKeyString('Ctrl+Shift', 'other')).toEqual({ problem: expect.stringContaining('no key') });
    expect(parseKeyString('Ctrl+Enterr', 'other')).toEqual({ problem: expect.stringContaining('not a key') });
    expect(parseKeyString('', 'other')).toEqual({ problem: expect.stringContaining('not a key') });
  });
});

describe('keyStringOf', () => {
  it('names a press by its physical key, so Shift does not change the letter', () => {
    expect(keyStringOf(press('P', 'KeyP', { ctrl: true, shift: true }))).toBe('Ctrl+Shift+P');
    expect(keyStringOf(press('@', 'Digit2', { shift: true }))).toBe('Shift+2');
    expect(keyStringOf(press(',', 'Comma', { meta: true }))).toBe('Meta+,');
    expect(keyStringOf(press('Escape', 'Escape'))).toBe('Escape');
  });

  it('is null for a modifier pressed alone', () => {
    expect(keyStringOf(press('Control', 'ControlLeft', { ctrl: true }))).toBeNull();
    expect(keyStringOf(press('Shift', 'ShiftLeft', { shift: true }))).toBeNull();
  });

  it('matches what parseKeyString makes of the same key', () => {
    const parsed = parseKeyString('Mod+Shift+P', 'other');
    expect(parsed).toEqual({ key: keyStringOf(press('p', 'KeyP', { ctrl: true, shift: true })) });
  });
});
