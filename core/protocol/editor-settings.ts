/*
 * The editor page's own settings (ADR 72): how the page looks and what it shows, read by the
 * renderer alone (the host reads none of them). Core declares them, as a plugin declares its own in
 * its manifest, so Settings shows them under "Editor" and a write is checked the same way; they
 * apply to every tab whatever plugin shows it. Shared by the host (the settings catalog) and the
 * page (which reads `settings.list`).
 */

/** The group Settings lists them under; `vmark` is no plugin's id (a plugin `vmark` contributes no command either). */
export const EDITOR_SETTINGS_GROUP = { id: 'vmark', title: 'Editor' } as const;

export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemeSetting = (typeof THEMES)[number];

export const EDITOR_SETTINGS = {
  'editor.theme': {
    type: 'enum',
    enum: [...THEMES] as string[],
    default: 'system',
    title: 'Theme',
    description:
      "Light or dark, for the whole window. System follows your system's appearance, and changes with it.",
  },
  'editor.fontFamily': {
    type: 'string',
    default: '',
    maxLength: 200,
    title: 'Text font',
    description:
      'The font of the text in Live mode, as CSS names it (e.g. "Georgia" or "Iowan Old Style, serif"). Empty: the system\'s sans-serif. Source mode stays monospaced.',
  },
  'editor.cjkFontFamily': {
    type: 'string',
    default: '',
    maxLength: 200,
    title: 'CJK font',
    description:
      'The font of Chinese, Japanese and Korean characters, in both modes (e.g. "Noto Serif CJK TC"). It takes those characters even where the text font has them too. Empty: Noto Sans CJK, or the system\'s.',
  },
  'editor.fontSize': {
    type: 'integer',
    default: 16,
    minimum: 10,
    maximum: 32,
    title: 'Font size',
    description: 'The size of the text, in pixels, in both modes.',
  },
  'editor.lineWidth': {
    type: 'integer',
    default: 760,
    minimum: 400,
    maximum: 2400,
    title: 'Line width',
    description: 'The widest the text column grows, in pixels; a narrower window wraps sooner.',
  },
  'editor.spellCheck': {
    type: 'boolean',
    default: false,
    title: 'Check spelling',
    description: "Underline misspelt words, with the browser's own spell checker and its languages.",
  },
} as const;

export type EditorSettingKey = keyof typeof EDITOR_SETTINGS;
