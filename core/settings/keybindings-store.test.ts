import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isDomainError } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeybindingsStore } from './keybindings-store.js';

let home: string;
let store: KeybindingsStore;
const file = () => path.join(home, 'keybindings.json');

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-keys-'));
  store = new KeybindingsStore(file());
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('KeybindingsStore', () => {
  it('writes the file from nothing, keys sorted, and reads it back', async () => {
    await store.update((keys) => ({ ...keys, 'vmark.save': 'Ctrl+Alt+S' }));
    await store.update((keys) => ({ ...keys, 'document.formatCjk': null }));
    expect(JSON.parse(await readFile(file(), 'utf8'))).toEqual({
      version: 1,
      keys: { 'document.formatCjk': null, 'vmark.save': 'Ctrl+Alt+S' },
    });
    expect((await store.load()).overrides).toEqual({
      'document.formatCjk': null,
      'vmark.save': 'Ctrl+Alt+S',
    });
  });

  it('lands two changes made at once, each on what the other wrote', async () => {
    const other = new KeybindingsStore(file());
    await Promise.all([
      store.update((keys) => ({ ...keys, a: 'Ctrl+A' })),
      other.update((keys) => ({ ...keys, b: 'Ctrl+B' })),
      store.update((keys) => ({ ...keys, c: 'Ctrl+C' })),
    ]);
    expect((await store.load()).overrides).toEqual({ a: 'Ctrl+A', b: 'Ctrl+B', c: 'Ctrl+C' });
  });

  it.each([
    ['not JSON', '{ "version": 1, ', 'is not JSON'],
    ['of another version', '{ "version": 2, "keys": {} }', 'has version 2'],
    ['with a key that is not a string', '{ "version": 1, "keys": { "vmark.save": 5 } }', 'not a key string'],
  ])('refuses to change a file %s, naming it, and leaves its bytes as they were', async (_, text, why) => {
    await writeFile(file(), text);
    const refusal = await store.update((keys) => ({ ...keys, a: 'Ctrl+A' })).catch((error: unknown) => error);
    expect(isDomainError(refusal) && refusal.code).toBe('READ_ONLY');
    expect((refusal as Error).message).toContain(file());
    expect((refusal as Error).message).toContain(why);
    expect(await readFile(file(), 'utf8')).toBe(text);
    expect(await store.load()).toMatchObject({ overrides: {} });
  });
});
