import type { Browser, CDPSession, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TempDirs } from './support/cli.js';
import { type EditorSession, sharedChromium, startEditorSession, visibleText } from './support/ui.js';

/*
 * Writing comfort as a person uses it (issue 20 items 1, 2, 5; ADR 72), through the built CLI in
 * Debian Chromium: find and replace with each option and a replace-all undone in one Ctrl+Z, a
 * broken regular expression said and never thrown; every formatting shortcut as it is pressed, and
 * a toggle on and off; the dark theme from the setting and from the system's preference; the
 * fonts, size, line width and spell check settings taking effect (the CJK font winning over a
 * Latin font that has CJK glyphs too); the status bar's CJK-aware counts and the cursor's place.
 */

const temp = new TempDirs();
let browser: Browser;
let session: EditorSession | undefined;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await sharedChromium();
});
afterAll(async () => {
  await temp.cleanup();
});
afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** A vault with `note.md` holding `text`, open in the editor, with the keys loaded. */
async function open(text: string): Promise<void> {
  session = await startEditorSession(temp, browser, { 'note.md': text }, 'note.md');
  page = session.page;
  errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // The keys are bound once the page has the host's list of commands: a button shows its key then.
  await page.locator('.tool-button[data-action=settings][title*="Ctrl+,"]').waitFor();
  await page.locator('.editor-host .cm-content').click();
}

/** The shown text as the person sees it, without the empty last line a file's final newline makes. */
const text = async () => (await visibleText(page)).replace(/\n+$/, '');
const source = () => page.click('.mode-switch [data-mode=source]');
const live = () => page.click('.mode-switch [data-mode=wysiwyg]');
const panel = () => page.locator('.find-panel');
const count = () => panel().locator('.find-count').textContent();
const status = (part: 'count' | 'position') => page.locator(`.status-${part}`).textContent();

/** Replaces the whole text by typing it, as a person would, in Source mode. */
async function typeText(value: string): Promise<void> {
  await page.keyboard.press('Control+A');
  await page.keyboard.type(value);
  await expect.poll(text).toBe(value);
}

async function openSettings(): Promise<Locator> {
  await page.click('.tool-button[data-action=settings]');
  const dialog = page.locator('dialog.settings-panel[open]');
  await dialog.waitFor();
  return dialog;
}

/** Sets one of the Editor settings in Settings, as a person does, and closes it. */
async function setSetting(key: string, value: string | boolean): Promise<void> {
  const dialog = await openSettings();
  const row = dialog.locator(`.setting-row[data-setting-key="${key}"]`);
  if (typeof value === 'boolean') {
    const toggle = row.locator('input[role=switch]');
    if ((await toggle.isChecked()) !== value) await toggle.click();
    await row.locator(`input[role=switch]:not(:disabled)${value ? ':checked' : ':not(:checked)'}`).waitFor();
  } else if ((await row.locator('select').count()) > 0) {
    await row.locator('select').selectOption(value);
    await row.locator('.setting-reset').waitFor();
  } else {
    await row.locator('input').fill(value);
    await row.locator('input').press('Tab');
    await row.locator('.setting-reset').waitFor();
  }
  await dialog.locator('.modal-close').click();
}

describe('find and replace in the file', () => {
  it('counts matches with case, whole word and regex, replaces one, and undoes a replace-all in one Ctrl+Z', async () => {
    await open('Cat cat concat CAT\n');
    await source();
    await page.keyboard.press('Control+F');
    await panel().locator('input[name=search]').waitFor();
    // The focus is in the pattern: what the person types is searched.
    await page.keyboard.type('cat');
    await expect.poll(count).toBe('4 matches');
    await page.keyboard.press('Enter');
    await expect.poll(count).toMatch(/^\d of 4$/);
    await panel().locator('label[title="Match case"]').click();
    await expect.poll(count).toMatch(/^(2 matches|\d of 2)$/);
    await panel().locator('label[title="Whole word"]').click();
    await expect.poll(count).toMatch(/^(1 match|1 of 1)$/);
    await panel().locator('label[title="Match case"]').click();
    await expect.poll(count).toMatch(/^(3 matches|\d of 3)$/);
    await panel().locator('label[title="Whole word"]').click();
    await panel().locator('label[title="Regular expression"]').click();
    await panel().locator('input[name=search]').fill('c[a-z]t$');
    await expect.poll(count).toMatch(/^(1 match|1 of 1)$/);

    // Replace: Ctrl+H puts the focus in the replacement; Enter there replaces the selected match.
    await panel().locator('input[name=search]').fill('cat');
    await panel().locator('label[title="Regular expression"]').click();
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Control+H');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('name')))
      .toBe('replace');
    await page.keyboard.type('dog');
    await panel().locator('input[name=search]').press('Enter');
    await page.locator('input[name=replace]').press('Enter');
    await expect.poll(() => text()).toBe('dog cat concat CAT');
    await panel().locator('button[name=replace-all]').click();
    await expect.poll(() => text()).toBe('dog dog condog dog');
    await expect.poll(count).toBe('No matches');
    await page.keyboard.press('Escape');
    await expect.poll(() => panel().count()).toBe(0);
    await page.keyboard.press('Control+Z');
    await expect.poll(() => text()).toBe('dog cat concat CAT');
    expect(errors).toEqual([]);
  });

  it('says a regular expression that does not compile under the field, and never throws', async () => {
    await open('a (b) c\n');
    await page.keyboard.press('Control+F');
    await panel().locator('label[title="Regular expression"]').click();
    await panel().locator('input[name=search]').fill('(b');
    await panel().locator('.find-problem', { hasText: 'Not a valid regular expression' }).waitFor();
    expect(await panel().locator('input[name=search]').getAttribute('aria-invalid')).not.toBeNull();
    expect(await count()).toBe('');
    // Enter and Replace all do nothing with it.
    await panel().locator('input[name=search]').press('Enter');
    await panel().locator('button[name=replace-all]').click();
    expect(await text()).toBe('a (b) c');
    await panel().locator('input[name=search]').fill('\\(b\\)');
    await expect.poll(() => panel().locator('.find-problem').isHidden()).toBe(true);
    await expect.poll(count).toBe('1 match');
    expect(errors).toEqual([]);
  });

  it('finds in Live mode too, where the marks are hidden', async () => {
    await open('a **bold** word, bold\n');
    await live();
    await page.keyboard.press('Control+F');
    await page.keyboard.type('bold');
    await expect.poll(count).toBe('2 matches');
    await page.keyboard.press('Enter');
    await expect.poll(count).toMatch(/^\d of 2$/);
    // The palette lists find and replace, with their keys.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Shift+P');
    await page.locator('dialog.command-palette input').fill('replace in file');
    const first = page.locator('.command-palette-item').first();
    expect(await first.getAttribute('data-command-id')).toBe('vmark.replace');
    expect(await first.locator('.command-palette-key').textContent()).toBe('Ctrl+H');
  });
});

describe('formatting commands', () => {
  /** Each shortcut on a whole-line selection in Source mode: [key, text before, text after]. */
  const CASES: readonly (readonly [string, string, string])[] = [
    ['Control+B', 'hello', '**hello**'],
    ['Control+I', 'hello', '*hello*'],
    ['Control+`', 'x = 1', '`x = 1`'],
    ['Control+Shift+X', 'gone', '~~gone~~'],
    ['Control+1', 'Title', '# Title'],
    ['Control+2', 'Title', '## Title'],
    ['Control+3', 'Title', '### Title'],
    ['Control+4', 'Title', '#### Title'],
    ['Control+5', 'Title', '##### Title'],
    ['Control+6', 'Title', '###### Title'],
    ['Control+0', '## Title', 'Title'],
    ['Control+Shift+8', 'one\ntwo', '- one\n- two'],
    ['Control+Shift+7', 'one\ntwo', '1. one\n2. two'],
    ['Control+Shift+9', 'buy milk', '- [ ] buy milk'],
    ['Control+Alt+Q', 'said', '> said'],
    ['Control+Shift+K', 'a = 1', '```\na = 1\n```'],
  ];

  it('runs each formatting shortcut as it is pressed', async () => {
    await open('start\n');
    await source();
    await page.locator('.cm-content').click();
    for (const [key, before, after] of CASES) {
      await typeText(before);
      await page.keyboard.press('Control+A');
      await page.keyboard.press(key);
      await expect.poll(() => text(), { message: key }).toBe(after);
    }
    // A link: the selection becomes its text, the cursor goes where the address is typed.
    await typeText('the docs');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+K');
    await page.keyboard.type('https://example.test');
    await expect.poll(() => text()).toBe('[the docs](https://example.test)');
    expect(errors).toEqual([]);
  });

  it('toggles bold on and off at the cursor in a word, and inserts a pair where there is no word', async () => {
    await open('say hello\n');
    await live();
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+B');
    await source();
    await expect.poll(() => text()).toBe('say **hello**');
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+B');
    await expect.poll(() => text()).toBe('say hello');
    await page.keyboard.press('End');
    await page.keyboard.type(' ');
    await page.keyboard.press('Control+B');
    await page.keyboard.type('new');
    await expect.poll(() => text()).toBe('say hello **new**');
    // One undo takes the typing, the next the marks.
    await page.keyboard.press('Control+Z');
    await page.keyboard.press('Control+Z');
    await expect.poll(() => text()).toMatch(/^say hello\s*$/);
  });

  it('lists the formatting commands in the palette for a Markdown note, and runs one from there', async () => {
    await open('plain\n');
    await source();
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+Shift+P');
    await page.locator('dialog.command-palette input').fill('format: heading 3');
    const first = page.locator('.command-palette-item').first();
    expect(await first.getAttribute('data-command-id')).toBe('document.heading3');
    expect(await first.locator('.command-palette-key').textContent()).toBe('Ctrl+3');
    await page.keyboard.press('Enter');
    await expect.poll(() => text()).toBe('### plain');
  });
});

describe('comfort', () => {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const theme = () => page.evaluate(() => document.documentElement.dataset.theme);

  it('turns dark from the setting, and follows the system’s preference on System', async () => {
    await open('# Night\n');
    expect(await theme()).toBe('light');
    const light = await background();
    await setSetting('editor.theme', 'dark');
    await expect.poll(theme).toBe('dark');
    expect(await background()).not.toBe(light);
    // The editor's text is light on dark too.
    const ink = await page.locator('.cm-content').evaluate((e) => getComputedStyle(e).color);
    expect(ink).toBe('rgb(217, 219, 223)');
    await setSetting('editor.theme', 'system');
    await expect.poll(theme).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(theme).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(theme).toBe('light');
    await setSetting('editor.theme', 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(async () => [await theme(), await background()]).toEqual(['light', light]);
  });

  it('counts the words of a mixed CJK and Latin note, and of a selection, and shows the cursor’s place', async () => {
    await open('中文 vmark 編輯器：Markdown 筆記。\nsecond line\n');
    await expect.poll(() => status('count')).toBe('11 words · 32 characters');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await expect.poll(() => status('position')).toBe('Ln 2, Col 12');
    await page.keyboard.press('Shift+Home');
    await expect.poll(() => status('count')).toBe('2 words · 10 characters selected');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => status('position')).toBe('Ln 1, Col 3');
    // Drawn inside the bar: its items sit in a contained box of the bar's size, which clips what overflows it.
    const bar = await page.locator('.statusbar').boundingBox();
    for (const part of ['.status-path', '.status-count', '.status-position']) {
      const box = await page.locator(part).boundingBox();
      expect(box?.height, part).toBeGreaterThan(10);
      expect(box!.y, part).toBeGreaterThanOrEqual(bar!.y);
      expect(box!.y + box!.height, part).toBeLessThanOrEqual(bar!.y + bar!.height);
      expect(box!.x + box!.width, part).toBeLessThanOrEqual(bar!.x + bar!.width);
    }
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => status('count')).toBe('1 word · 1 character selected');
  });

  it('applies the font size, line width and spell check settings', async () => {
    await open('Some text to read.\n');
    await setSetting('editor.fontSize', '21');
    const content = page.locator('.cm-content');
    await expect.poll(() => content.evaluate((e) => getComputedStyle(e).fontSize)).toBe('21px');
    await setSetting('editor.lineWidth', '500');
    await expect.poll(() => content.evaluate((e) => getComputedStyle(e).maxWidth)).toBe('500px');
    expect(await content.getAttribute('spellcheck')).toBe('false');
    await setSetting('editor.spellCheck', true);
    await expect.poll(() => content.getAttribute('spellcheck')).toBe('true');
  });

  it('draws CJK characters in the CJK font even where the text font has CJK glyphs too', async () => {
    await open('中文abc\n');
    await live();
    // Noto Sans CJK has Latin and CJK glyphs: set as the text font, it would take the CJK text too.
    await setSetting('editor.fontFamily', 'Noto Sans CJK TC');
    await setSetting('editor.cjkFontFamily', 'Noto Serif CJK TC');
    const cdp = await page.context().newCDPSession(page);
    await expect
      .poll(() => platformFonts(cdp, '.cm-line'))
      .toEqual({
        'Noto Sans CJK TC': 3,
        'Noto Serif CJK TC': 2,
      });
  });
});

/** The fonts Chromium drew the element's text with, and how many glyphs each. */
async function platformFonts(cdp: CDPSession, selector: string): Promise<Record<string, number>> {
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  return Object.fromEntries(fonts.map((f) => [f.familyName, f.glyphCount]));
}
