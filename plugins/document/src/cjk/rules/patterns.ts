/** Regex building blocks shared by the `cjk-format` rules (all used with the `u` flag). */
import { CJK_CLOSING_BRACKETS, CJK_LETTER_RANGES, CJK_OPENING_BRACKETS, CJK_TERMINAL_PUNCTUATION } from '../char-classes.js';

/** One CJK letter (Han, kana, Bopomofo; not Hangul). */
export const CJK = `[${CJK_LETTER_RANGES}]`;

/** A CJK letter or fullwidth CJK punctuation: the context that turns `--` into `——`. */
export const CJK_CONTEXT = `[${CJK_LETTER_RANGES}${CJK_OPENING_BRACKETS}${CJK_CLOSING_BRACKETS}${CJK_TERMINAL_PUNCTUATION}]`;

/** Characters after which no space is put (a fullwidth mark carries its own spacing). */
export const NO_SPACE_AFTER = CJK_CLOSING_BRACKETS + CJK_TERMINAL_PUNCTUATION;
/** Characters before which no space is put. */
export const NO_SPACE_BEFORE = CJK_OPENING_BRACKETS + CJK_TERMINAL_PUNCTUATION;
