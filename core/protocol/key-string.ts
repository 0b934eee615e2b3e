/*
 * Key strings, as manifests, the keybindings file and the page write them: modifiers then one key,
 * joined by `+` ("Ctrl+Shift+P", "Mod+P"). `Mod` is Cmd on macOS and Ctrl elsewhere. The canonical
 * form orders the modifiers Ctrl, Alt, Shift, Meta, so two spellings of one key compare equal.
 */

export type Platform = 'mac' | 'other';

const MODIFIERS = ['Ctrl', 'Alt', 'Shift', 'Meta'] as const;
type Modifier = (typeof MODIFIERS)[number];

const MODIFIER_NAMES = new Map<string, Modifier | 'Mod'>([
  ['ctrl', 'Ctrl'],
  ['control', 'Ctrl'],
  ['alt', 'Alt'],
  ['option', 'Alt'],
  ['shift', 'Shift'],
  ['meta', 'Meta'],
  ['cmd', 'Meta'],
  ['mod', 'Mod'],
]);

const NAMED_KEYS = new Map(
  [
    'Enter',
    'Escape',
    'Tab',
    'Space',
    'Backspace',
    'Delete',
    'Insert',
    'Home',
    'End',
    'PageUp',
    'PageDown',
    'ArrowUp',
    'ArrowDown',
    'ArrowLeft',
    'ArrowRight',
    ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
  ].map((name) => [name.toLowerCase(), name]),
);

/** The one printable characters a key may be besides letters and digits. */
const PUNCTUATION = new Set([...",.;'/\\[]-=`"]);

/** The canonical form of `text` on `platform`, or why it is not a key string. */
export function parseKeyString(text: string, platform: Platform): { key: string } | { problem: string } {
  const parts = text.split('+');
  // "Ctrl++" names the plus key: an empty last part after a `+`.
  if (parts.length > 1 && parts.at(-1) === '' && parts.at(-2) === '') parts.splice(-2, 2, '+');
  const keyPart = parts.pop() ?? '';
  const modifiers = new Set<Modifier>();
  for (const part of parts) {
    const modifier = MODIFIER_NAMES.get(part.trim().toLowerCase());
    if (modifier === undefined)
      return { problem: `"${part}" in "${text}" is not a modifier (Ctrl, Alt, Shift, Meta, Mod)` };
    const resolved = modifier === 'Mod' ? (platform === 'mac' ? 'Meta' : 'Ctrl') : modifier;
    if (modifiers.has(resolved)) return { problem: `"${text}" names ${resolved} twice` };
    modifiers.add(resolved);
  }
  const key = keyName(keyPart.trim());
  if (key === null) return { problem: `"${keyPart}" in "${text}" is not a key` };
  if (MODIFIER_NAMES.has(key.toLowerCase())) return { problem: `"${text}" has no key besides its modifiers` };
  return { key: [...MODIFIERS.filter((m) => modifiers.has(m)), key].join('+') };
}

function keyName(part: string): string | null {
  if (/^[a-z0-9]$/i.test(part)) return part.toUpperCase();
  if (PUNCTUATION.has(part) || part === '+') return part;
  return NAMED_KEYS.get(part.toLowerCase()) ?? (MODIFIER_NAMES.has(part.toLowerCase()) ? part : null);
}

/** What a key press is, in the shape a keyboard event gives it. */
export interface KeyPress {
  readonly key: string;
  readonly code?: string;
  readonly ctrlKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
  readonly metaKey: boolean;
}

/**
 * The canonical key string of a press, or `null` for a press of a modifier alone. The letter or
 * digit comes from the physical key (`code`) when there is one, so Shift and Alt, which change
 * `key` ("P" → "p", "2" → "@"), do not change which binding it is.
 */
export function keyStringOf(press: KeyPress): string | null {
  const fromCode = /^Key([A-Z])$|^Digit([0-9])$/.exec(press.code ?? '');
  const base = fromCode ? (fromCode[1] ?? fromCode[2] ?? '') : press.key === ' ' ? 'Space' : press.key;
  const key = keyName(base);
  if (key === null || MODIFIER_NAMES.has(key.toLowerCase())) return null;
  const held: Record<Modifier, boolean> = {
    Ctrl: press.ctrlKey,
    Alt: press.altKey,
    Shift: press.shiftKey,
    Meta: press.metaKey,
  };
  return [...MODIFIERS.filter((m) => held[m]), key].join('+');
}
