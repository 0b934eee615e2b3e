import {
  EDITOR_SETTINGS,
  EDITOR_SETTINGS_GROUP,
  type EditorSettingKey,
  THEMES,
  type ThemeSetting,
} from '../../../protocol/editor-settings.js';
import type { UiSettings } from '../../../protocol/panel-protocol.js';

/** The editor page's own settings (ADR 72) as they apply now. */
export interface Appearance {
  readonly theme: ThemeSetting;
  readonly fontFamily: string;
  readonly cjkFontFamily: string;
  readonly fontSize: number;
  readonly lineWidth: number;
  readonly spellCheck: boolean;
}

/** The values Settings lists (the stored ones that fit, else the defaults); the defaults when the list has none. */
export function appearanceOf(settings: UiSettings | null): Appearance {
  const group = settings?.groups.find((g) => g.id === EDITOR_SETTINGS_GROUP.id);
  const value = <K extends EditorSettingKey>(key: K) =>
    group?.settings.find((s) => s.key === key)?.value ?? EDITOR_SETTINGS[key].default;
  const theme = String(value('editor.theme'));
  return {
    theme: (THEMES as readonly string[]).includes(theme) ? (theme as ThemeSetting) : 'system',
    fontFamily: String(value('editor.fontFamily')),
    cjkFontFamily: String(value('editor.cjkFontFamily')),
    fontSize: Number(value('editor.fontSize')),
    lineWidth: Number(value('editor.lineWidth')),
    spellCheck: value('editor.spellCheck') === true,
  };
}

/** The face that takes CJK characters when a CJK font is set: first in both stacks, limited to their ranges. */
export const CJK_FACE = 'vmark cjk';

/**
 * The code points the CJK font takes: radicals, CJK punctuation, kana, bopomofo, Hangul, the
 * ideographs (and their extensions), compatibility forms and full-width forms.
 */
export const CJK_RANGES =
  'U+2E80-2FDF, U+3000-33FF, U+3400-4DBF, U+4E00-9FFF, U+A960-A97F, U+AC00-D7AF, U+D7B0-D7FF, ' +
  'U+F900-FAFF, U+FE30-FE4F, U+FF00-FFEF, U+20000-2FA1F';

/** A font list as a person types it, kept to what a font-family list holds (no `;`, `{`, `(`…). */
export function fontList(text: string): string {
  return text
    .split(',')
    .map((name) => name.replace(/[^\p{L}\p{N} '"._-]/gu, '').trim())
    .filter((name) => name !== '' && name !== '"' && name !== "'")
    .join(', ');
}

/** One family's name for `local()`: no quotes or backslashes, which would end the string. */
function familyName(text: string): string {
  return text.replace(/[^\p{L}\p{N} ._-]/gu, '').trim();
}

export interface FontStacks {
  /** The Live mode's text font (`--font-text`), the Latin font and the defaults behind the CJK face. */
  readonly text: string | null;
  /** Source mode's (`--font-mono`), the CJK face before the default monospace stack. */
  readonly mono: string | null;
  /** `@font-face` rules for the CJK face (regular and bold), empty without a CJK font. */
  readonly faces: string;
}

/**
 * The font stacks the settings ask for; `null` keeps the page's default. The CJK font comes first,
 * through a face limited to CJK code points: a browser takes each character from the first family
 * that covers it, so the CJK font takes CJK characters even where the text font (or a fallback
 * such as a system font with Chinese in it) has them too — and only those, so Latin text keeps the
 * text font. Placing the CJK family after the Latin one would let a Latin font with CJK glyphs win.
 */
export function fontStacks(
  appearance: Pick<Appearance, 'fontFamily' | 'cjkFontFamily'>,
  defaults: { text: string; mono: string },
): FontStacks {
  const latin = fontList(appearance.fontFamily);
  const cjk = familyName(appearance.cjkFontFamily);
  const before = cjk === '' ? '' : `"${CJK_FACE}", `;
  const text =
    latin === '' && cjk === '' ? null : `${before}${latin === '' ? '' : `${latin}, `}${defaults.text}`;
  const mono = cjk === '' ? null : `${before}${defaults.mono}`;
  const face = (weight: number, sources: string[]) =>
    `@font-face { font-family: "${CJK_FACE}"; font-weight: ${weight}; ` +
    `src: ${sources.map((s) => `local("${s}")`).join(', ')}; unicode-range: ${CJK_RANGES}; }`;
  const faces = cjk === '' ? '' : [face(400, [cjk, `${cjk} Regular`]), face(700, [`${cjk} Bold`])].join('\n');
  return { text, mono, faces };
}
