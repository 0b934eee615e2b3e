// The spelling half of the protected-folder guard: every way a client might write a path into a
// `.vmark` folder or `$VMARK_HOME`, asked through lexicalResolve + protectedReason as the guard does.
import { describe, expect, it } from 'vitest';
import { lexicalResolve } from './path-scope.js';
import {
  foldSegment,
  INSIDE_LEDGER_FOLDER,
  INSIDE_VMARK_HOME,
  protectedReason,
} from './protected-folders.js';

const ROOT = '/home/user/project';
const HOME = '/home/user/.local/share/vmark';

/** What the guard says about `input`, resolved against the workspace root. */
function reasonFor(input: string, homes: readonly string[] = [HOME]): string | null {
  return protectedReason(lexicalResolve(input, ROOT), homes);
}

describe("a workspace's .vmark folder (the coherence ledger)", () => {
  it.each([
    '.vmark/ledger/0198c0de-0000-7000-8000-000000000001.jsonl',
    `${ROOT}/.vmark/ledger/quarantine/x.bad`,
    `${ROOT}/.vmark/contexts/default.json`,
    `${ROOT}/.vmark/.gitattributes`,
    `${ROOT}/.vmark`,
    `${ROOT}/.vmark/`,
  ])('refuses the ledger, its contexts and the folder itself: %s', (input) => {
    expect(reasonFor(input)).toBe(INSIDE_LEDGER_FOLDER);
  });

  it.each([
    `${ROOT}/notes/.vmark/ledger/w.jsonl`,
    `${ROOT}/a/b/c/.vmark/contexts/default.json`,
    'chapters/.vmark',
  ])('refuses a .vmark folder at any depth, since any folder may become a workspace root: %s', (input) => {
    expect(reasonFor(input)).toBe(INSIDE_LEDGER_FOLDER);
  });

  it.each([
    `${ROOT}/notes/../.vmark/ledger/w.jsonl`,
    'notes/./../.vmark/ledger/w.jsonl',
    `${ROOT}//.vmark//ledger//w.jsonl`,
    `${ROOT}/.vmark/ledger/../../.vmark/ledger/w.jsonl`,
  ])('sees through ../, ./ and doubled separators: %s', (input) => {
    expect(reasonFor(input)).toBe(INSIDE_LEDGER_FOLDER);
  });

  it.each(['.VMARK/ledger/w.jsonl', '.Vmark/ledger/w.jsonl', '.vMaRk/contexts/default.json'])(
    'refuses other cases of the name, which a case-insensitive disk opens as .vmark: %s',
    (input) => {
      expect(reasonFor(input)).toBe(INSIDE_LEDGER_FOLDER);
    },
  );

  it.each([
    '.vmark./ledger/w.jsonl',
    '.vmark /ledger/w.jsonl',
    '.vmark. . /ledger/w.jsonl',
    '.vmark::$INDEX_ALLOCATION/ledger/w.jsonl',
    '.vmark:stream',
  ])('refuses the suffixes Windows drops (trailing dots and spaces, :streams): %j', (input) => {
    expect(reasonFor(input)).toBe(INSIDE_LEDGER_FOLDER);
  });

  it('lets through names that only resemble it', () => {
    for (const name of [
      'vmark',
      '.vmarks',
      '.vmark-notes',
      'x.vmark',
      '..vmark',
      '.vm ark',
      'notes.vmark.md',
    ]) {
      expect(reasonFor(`${name}/a.md`)).toBeNull();
      expect(reasonFor(name)).toBeNull();
    }
    expect(reasonFor(`${ROOT}/.vmark/../notes.md`)).toBeNull();
    expect(reasonFor(`${ROOT}/notes.md`)).toBeNull();
  });
});

describe('$VMARK_HOME (settings, credentials, grants, plugins)', () => {
  it.each([
    `${HOME}/settings.json`,
    `${HOME}/providers.json`,
    `${HOME}/coherence-grants/abc/0198c0de-0000-7000-8000-000000000001.json`,
    `${HOME}/plugins/evil/index.js`,
    `${HOME}/hosts/123.json`,
    HOME,
    `${HOME}/`,
  ])('refuses the home folder and everything in it: %s', (input) => {
    expect(reasonFor(input)).toBe(INSIDE_VMARK_HOME);
  });

  it('refuses it when it lies inside the workspace, written relative or absolute', () => {
    const inside = `${ROOT}/.config/vmark`;
    expect(reasonFor('.config/vmark/settings.json', [inside])).toBe(INSIDE_VMARK_HOME);
    expect(reasonFor(`${ROOT}/.config/vmark/settings.json`, [inside])).toBe(INSIDE_VMARK_HOME);
    expect(reasonFor('notes/../.config/vmark/settings.json', [inside])).toBe(INSIDE_VMARK_HOME);
  });

  it('refuses the workspace itself when it is the home or lies inside it (open_workspace)', () => {
    expect(reasonFor(ROOT, [ROOT])).toBe(INSIDE_VMARK_HOME);
    expect(reasonFor(`${ROOT}/sub`, [ROOT])).toBe(INSIDE_VMARK_HOME);
    expect(reasonFor(ROOT, ['/home/user'])).toBe(INSIDE_VMARK_HOME);
  });

  it('matches the home in any case, and in either Unicode normalization', () => {
    expect(reasonFor('/HOME/USER/.LOCAL/SHARE/VMARK/settings.json')).toBe(INSIDE_VMARK_HOME);
    const decomposed = '/Users/Jose\u0301/VMark';
    expect(reasonFor('/users/jos\u00e9/vmark/settings.json', [decomposed])).toBe(INSIDE_VMARK_HOME);
    expect(reasonFor('/Users/STRASSE/vmark/settings.json', ['/Users/straße/vmark'])).toBe(INSIDE_VMARK_HOME);
  });

  it('checks every spelling it is given: the home as set and as resolved through links', () => {
    const homes = ['/tmp/vmark-home', '/private/tmp/vmark-home'];
    expect(reasonFor('/private/tmp/vmark-home/settings.json', homes)).toBe(INSIDE_VMARK_HOME);
    expect(reasonFor('/tmp/vmark-home/settings.json', homes)).toBe(INSIDE_VMARK_HOME);
  });

  it('does not fall for the prefix trick in reverse: a sibling of the home is not inside it', () => {
    for (const sibling of ['vmark2', 'vmark-old', 'vmark.bak', 'vmarks']) {
      expect(reasonFor(`/home/user/.local/share/${sibling}/settings.json`)).toBeNull();
    }
    expect(reasonFor('/home/user/.local/share/settings.json')).toBeNull();
    // The workspace may contain the home: only the home's own subtree is refused.
    expect(reasonFor(`${ROOT}/notes.md`, ['/home/user/project/.config/vmark'])).toBeNull();
  });
});

describe('foldSegment', () => {
  it('folds what case-insensitive, normalization-insensitive disks fold, and keeps the rest', () => {
    expect(foldSegment('.VMark')).toBe('.vmark');
    expect(foldSegment('Cafe\u0301')).toBe('caf\u00e9');
    expect(foldSegment('Stra\u00dfe')).toBe('strasse');
    expect(foldSegment('.vmark. ')).toBe('.vmark');
    expect(foldSegment('.vmark:$DATA')).toBe('.vmark');
    expect(foldSegment('a b')).toBe('a b');
    expect(foldSegment('%2e%2e')).toBe('%2e%2e');
  });
});
