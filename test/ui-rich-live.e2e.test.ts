import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, TempDirs } from './support/cli.js';
import { connectMcp, sharedChromium, type Served, startServe } from './support/ui.js';
import { realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';

/*
 * Live mode's rich rendering (ADR 73) as a person sees it, through the built CLI in Debian
 * Chromium under the page's real CSP: tables, math, tasks, a callout, footnotes, a Mermaid diagram
 * and highlighted code drawn; the cursor in the table shows its source; broken math and diagrams
 * show their error and stay editable; nothing in a diagram or a formula runs script.
 */

export const RICH_NOTE = [
  '# Rich note',
  '',
  '| Fruit | Count | Note |',
  '| :--- | ---: | :---: |',
  '| Apple | 3 | *crisp* |',
  '| Pear | 12 | $x^2$ |',
  '',
  'Euler: $e^{i\\pi}+1=0$ inline.',
  '',
  '$$',
  '\\int_0^1 x^2\\,dx = \\frac{1}{3}',
  '$$',
  '',
  '- [ ] Write the report',
  '- [x] Read the brief',
  '',
  '> [!warning] Mind the gap',
  '> Callouts carry a type.',
  '',
  'A claim[^1].',
  '',
  '[^1]: The source.',
  '',
  '```mermaid',
  'graph TD',
  '  A[Start] --> B{Choice}',
  '  B --> C[Done]',
  '```',
  '',
  '```js',
  'const answer = 42; // the answer',
  '```',
  '',
].join('\n');

const BROKEN_NOTE = [
  '# Broken',
  '',
  'Half a fraction: $\\frac{1}{$',
  '',
  '```mermaid',
  'graph TD',
  '  A -->',
  '```',
  '',
].join('\n');

const HOSTILE_NOTE = [
  '# Hostile',
  '',
  'Math: $\\href{javascript:window.__pwned=1}{click}$ and $\\htmlId{x}{y}$',
  '',
  '```mermaid',
  '%%{init: {"securityLevel": "loose"}}%%',
  'graph TD',
  '  A["<img src=x onerror=window.__pwned=2>"] --> B["<script>window.__pwned=3</script>"]',
  '  B --> C["<svg onload=window.__pwned=4></svg>"]',
  '  click A call eval("window.__pwned=5")',
  '```',
  '',
].join('\n');

const temp = new TempDirs();
let browser: Browser;
let served: Served | undefined;
let page: Page | undefined;
let client: Client | undefined;

beforeAll(async () => {
  browser = await sharedChromium();
});
afterAll(async () => {
  await temp.cleanup();
});
afterEach(async () => {
  await client?.close();
  await page?.close();
  await served?.stop();
});

declare global {
  interface Window {
    __csp?: string[];
    __pwned?: unknown;
  }
}

/** `vmark serve` on a vault of one note, shown in Live mode, every CSP violation of the page recorded. */
async function open(text: string): Promise<Page> {
  const vault = await realpath(await temp.make('vmark-rich-vault-'));
  await writeFile(path.join(vault, 'Note.md'), text);
  served = await startServe(['--workspace', vault, '--open', path.join(vault, 'Note.md')], await temp.make());
  client = await connectMcp(served);
  page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
  page.setDefaultTimeout(20_000);
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__csp!.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`),
    );
  });
  await page.goto(served.url);
  await page.locator('.editor-host .cm-content').waitFor();
  expect(await page.locator('.cm-editor').getAttribute('class')).toContain('cm-live-preview');
  return page;
}

const documentText = async () => String((await call(client!, 'document', { action: 'read' })).data.content);
const violations = () => page!.evaluate(() => window.__csp ?? []);

describe('rich rendering in Live mode', () => {
  it('draws a table, math, tasks, a callout, a footnote, a diagram and highlighted code', async () => {
    const page = await open(RICH_NOTE);
    // The table, as cells, aligned as its delimiter row says, its cells' Markdown drawn.
    const cells = page.locator('.cm-lp-table td');
    await expect
      .poll(() => cells.allInnerTexts())
      .toEqual(['Apple', '3', 'crisp', 'Pear', '12', expect.any(String)]);
    expect(await page.locator('.cm-lp-table th').allInnerTexts()).toEqual(['Fruit', 'Count', 'Note']);
    expect(await cells.nth(1).evaluate((td) => getComputedStyle(td).textAlign)).toBe('right');
    expect(await cells.nth(2).locator('em').innerText()).toBe('crisp');
    await cells.nth(5).locator('.katex').waitFor();
    // Math: inline, a block (display style), KaTeX's fonts from the host.
    await page.locator('.cm-line .cm-lp-math .katex').first().waitFor();
    await page.locator('.cm-lp-math-block .katex-display').waitFor();
    await expect
      .poll(() => page.evaluate(async () => (await document.fonts.load('16px KaTeX_Main', 'x')).length))
      .toBeGreaterThan(0);
    // Tasks: checkboxes, as the text says.
    const boxes = page.locator('input.cm-lp-task');
    expect(await boxes.count()).toBe(2);
    expect([await boxes.nth(0).isChecked(), await boxes.nth(1).isChecked()]).toEqual([false, true]);
    // The callout: its type's colours, its title without the `[!warning]`.
    const head = page.locator('.cm-line.cm-lp-callout-head');
    expect(await head.getAttribute('class')).toContain('cm-lp-callout-warning');
    expect(await head.evaluate((e) => getComputedStyle(e).borderLeftColor)).toBe('rgb(188, 76, 0)');
    expect(await head.innerText()).toContain('Mind the gap');
    expect(await head.innerText()).not.toContain('[!warning]');
    expect(await page.locator('.cm-line.cm-lp-callout').count()).toBe(2);
    expect(await page.locator('.cm-line.cm-lp-callout-last').innerText()).toBe('Callouts carry a type.');
    // The footnote: a superscript reference, a styled definition.
    expect(await page.locator('.cm-line sup.cm-lp-fnref').innerText()).toBe('1');
    expect(await page.locator('.cm-line.cm-lp-footnote').innerText()).toContain('The source.');
    // The diagram: Mermaid's SVG, its labels in it.
    const diagram = page.locator('.cm-lp-mermaid svg');
    await diagram.waitFor();
    expect(await diagram.textContent()).toContain('Choice');
    // The code: its keyword in the keyword colour.
    const keyword = page.locator('.cm-line span', { hasText: /^const$/ });
    await expect.poll(() => keyword.evaluate((e) => getComputedStyle(e).color)).toBe('rgb(207, 34, 46)');
    expect(await violations()).toEqual([]);
  });

  it('shows the table’s source with the cursor in a cell, where typing edits that cell', async () => {
    const page = await open(RICH_NOTE);
    await page.locator('.cm-lp-table td', { hasText: 'Pear' }).click();
    await expect.poll(() => page.locator('.cm-lp-table').count()).toBe(0);
    expect(await page.locator('.editor-host .cm-content').innerText()).toContain('| Pear | 12 | $x^2$ |');
    await page.keyboard.type('Big ');
    await expect.poll(documentText).toContain('| Big Pear | 12 | $x^2$ |');
    // The cursor leaves: the table is drawn again, with the new text.
    await page.keyboard.press('Control+End');
    await expect.poll(() => page.locator('.cm-lp-table td').nth(3).innerText()).toBe('Big Pear');
  });

  it('shows after typing between drawn blocks what it shows drawn afresh (ADR 110)', async () => {
    const page = await open(RICH_NOTE);
    await page.locator('.cm-lp-mermaid svg').waitFor();
    // What the editor shows, line by line and block by block.
    const shown = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('.editor-host .cm-content > *')].map(
          (element) => `${element.className} | ${element.innerHTML}`,
        ),
      );
    // Typed key by key into the paragraph between the table and the math block, then a new block below.
    await page.locator('.cm-line', { hasText: 'Euler' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' And *more*, with [a link](x.md) and $y$.');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    // A heading with code and a link: its line keeps their styles while it is edited.
    await page.keyboard.type('## A heading, `code` and [a link](y.md)');
    await expect.poll(documentText).toContain('## A heading, `code` and [a link](y.md)\n\n$$');
    expect(await page.locator('.cm-line.cm-lp-h2 .cm-lp-link').allInnerTexts()).toEqual(['[a link](y.md)']);
    const typed = await shown();
    // Drawn afresh: Source mode and back rebuild every decoration, the cursor where it was.
    await page.click('.mode-switch [data-mode=source]');
    await expect.poll(() => page.locator('.cm-lp-table').count()).toBe(0);
    await page.click('.mode-switch [data-mode=wysiwyg]');
    await expect.poll(shown).toEqual(typed);
  });

  it('toggles a task’s Markdown from its checkbox, one undo step', async () => {
    const page = await open(RICH_NOTE);
    await page.locator('input.cm-lp-task').first().click();
    await expect.poll(documentText).toContain('- [x] Write the report\n- [x] Read the brief');
    expect(await page.locator('input.cm-lp-task').first().isChecked()).toBe(true);
    await page.locator('input.cm-lp-task').nth(1).click();
    await expect.poll(documentText).toContain('- [x] Write the report\n- [ ] Read the brief');
    await page.keyboard.press('Control+z');
    await expect.poll(documentText).toContain('- [x] Write the report\n- [x] Read the brief');
    await page.keyboard.press('Control+z');
    await expect.poll(documentText).toBe(RICH_NOTE);
  });

  it('shows broken math and a broken diagram as their errors, and both stay editable', async () => {
    const page = await open(BROKEN_NOTE);
    const mathError = page.locator('.cm-lp-math .cm-lp-error');
    await expect.poll(() => mathError.innerText()).toContain('KaTeX parse error');
    const diagramError = page.locator('.cm-lp-mermaid .cm-lp-error');
    await expect.poll(() => diagramError.innerText()).toMatch(/^Mermaid: .*(Parse|error)/is);
    // A click on the diagram's error puts the cursor in its source: the person fixes it there.
    await diagramError.click();
    await expect.poll(() => page.locator('.cm-lp-mermaid').count()).toBe(0);
    await page.locator('.cm-line', { hasText: 'A -->' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' B');
    // And the formula, in its own line.
    await page.locator('.cm-line', { hasText: 'Half a fraction' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type('2}');
    await expect.poll(documentText).toBe(BROKEN_NOTE.replace('A -->', 'A --> B').replace('{1}{$', '{1}{2}$'));
    await page.keyboard.press('Control+Home');
    await page.locator('.cm-lp-mermaid svg').waitFor();
    await page.locator('.cm-line .cm-lp-math .katex').waitFor();
    expect(await page.locator('.cm-lp-error').count()).toBe(0);
  });

  it('runs no script from a diagram’s labels or a formula', async () => {
    const page = await open(HOSTILE_NOTE);
    await page.locator('.cm-lp-mermaid svg, .cm-lp-mermaid .cm-lp-error').first().waitFor();
    await page.locator('.cm-line .cm-lp-math .katex, .cm-line .cm-lp-math .cm-lp-error').first().waitFor();
    const drawn = page.locator('.cm-lp-mermaid, .cm-lp-math');
    expect(await drawn.locator('script, [onerror], [onload], [onclick], a[href^="javascript"]').count()).toBe(
      0,
    );
    expect(await drawn.locator('img').count()).toBe(0);
    // Whatever the labels became, their text is text: the page's own state is untouched.
    await page.locator('.cm-line', { hasText: 'Hostile' }).click();
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    // What the page's CSP refused, if anything, is inline handlers (DOMPurify parses the labels in
    // an inert document, which Chromium still checks): nothing else was tried, nothing ran.
    for (const refused of await violations())
      expect(refused).toMatch(/^script-src-attr inline .*rich-mermaid\.js$/);
  });

  it('loads KaTeX, Mermaid and the code languages only for a note that needs them', async () => {
    const page = await open('# Plain\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n- [ ] task\n');
    await page.locator('.cm-lp-table td').first().waitFor();
    const loaded = () =>
      page.evaluate(() =>
        performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname),
      );
    expect(await loaded()).toContain('/plugins/document/ui/dist/markdown-view.js');
    expect((await loaded()).filter((p) => /rich-math|rich-mermaid|code-languages|katex/.test(p))).toEqual([]);
    // Math typed into the note brings KaTeX (and its fonts), and nothing else.
    await page.locator('.cm-line', { hasText: 'Plain' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' $x^2$');
    await page.keyboard.press('Control+End');
    await page.locator('.cm-line .cm-lp-math .katex').waitFor();
    const after = await loaded();
    expect(after).toContain('/plugins/document/ui/dist/rich-math.js');
    expect(after.filter((p) => /rich-mermaid|code-languages/.test(p))).toEqual([]);
  });

  it('leaves the file as it is in Source mode', async () => {
    const page = await open(RICH_NOTE);
    await page.locator('.cm-lp-table').waitFor();
    await page.click('.mode-switch [data-mode=source]');
    await expect
      .poll(() => page.locator('.cm-lp-table, .cm-lp-math, .cm-lp-task, .cm-lp-mermaid').count())
      .toBe(0);
    const shown = await page.locator('.editor-host .cm-line').allTextContents();
    expect(shown.join('\n')).toBe(RICH_NOTE);
  });
});
