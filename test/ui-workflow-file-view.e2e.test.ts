import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, TempDirs } from './support/cli.js';
import { type EditorSession, sharedChromium, startEditorSession } from './support/ui.js';

/*
 * The browser-workflow kind's view (ADR 35, 42) through the built CLI, in Debian Chromium: it comes
 * from the browser plugin, shows the workflow parser's diagnostics on their lines (and the actions
 * a run cannot do by itself), and follows the text as an AI client rewrites it.
 */

const BROKEN = ['---', 'inputs: [q]', '---', '1. goal: find {q} and {nope}', 'API: call it', ''].join('\n');
const FIXED = ['---', 'site: example', 'inputs: [q]', '---', '1. goal: find {q}', ''].join('\n');

const temp = new TempDirs();
let browser: Browser;
let session: EditorSession;
let page: Page;

beforeAll(async () => {
  browser = await sharedChromium();
  session = await startEditorSession(temp, browser, { 'find.workflow.md': BROKEN }, 'find.workflow.md');
  page = session.page;
});
afterAll(async () => {
  await session?.close();
  await temp.cleanup();
});

const count = (selector: string) => page.locator(`.editor-host ${selector}`).count();

describe('the browser workflow view', () => {
  it('is the browser plugin’s text view, on the page’s one CodeMirror', async () => {
    await expect
      .poll(() => page.locator('.editor-host .document-view').getAttribute('data-view'))
      .toBe('text');
    const modules = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname),
    );
    expect(modules).toContain('/plugins/browser/ui/dist/workflow-file-view.js');
    expect(modules.filter((m) => m.includes('codemirror-state'))).toEqual(['/assets/codemirror-state.js']);
  });

  it('marks each diagnostic on its line, errors and warnings, with the parser’s messages', async () => {
    await expect.poll(() => count('.cm-lintRange-error')).toBe(2);
    expect(await count('.cm-lintRange-warning')).toBe(1);
    expect(await count('.cm-gutter-lint .cm-lint-marker-error')).toBe(2);
    // The lint panel (Mod-Shift-m) lists them in line order, each with its code.
    await page.locator('.editor-host .cm-content').click();
    await page.keyboard.press('Control+Shift+KeyM');
    const panel = page.locator('.editor-host .cm-panel-lint');
    await expect
      .poll(() => panel.locator('.cm-diagnosticText').allTextContents())
      .toEqual([
        'Front matter must set a non-empty "site".',
        'Step references undeclared variable "{nope}".',
        'Step must be "<kind>: <text>" (got: API: call it)',
      ]);
    expect(await panel.locator('.cm-diagnosticSource').allTextContents()).toEqual([
      'missing-site',
      'undeclared-variable',
      'malformed-step',
    ]);
  });

  it('follows the text: an AI client’s fix clears the marks at once', async () => {
    const read = await call(session.client, 'document', { action: 'read' });
    expect(read.data).toMatchObject({ kind: 'browser-workflow', content: BROKEN });
    const write = await call(session.client, 'document', {
      action: 'write',
      content: FIXED,
      expected_revision: read.data.revision,
    });
    expect(write.data).toMatchObject({ saved: true });
    await expect.poll(() => count('.cm-lintRange-error')).toBe(0);
    expect(await count('.cm-lintRange-warning')).toBe(0);
    expect(await count('.cm-lint-marker')).toBe(0);
  });

  it('marks an action a run cannot do by itself, once the file parses', async () => {
    const read = await call(session.client, 'document', { action: 'read' });
    const prose = `${FIXED}2. action: click 回复 and submit\n3. action: click "Go" now\n`;
    await call(session.client, 'document', {
      action: 'write',
      content: prose,
      expected_revision: read.data.revision,
    });
    await expect.poll(() => count('.cm-lintRange-info')).toBe(1);
    expect(await count('.cm-lintRange-warning')).toBe(1);
    expect(await count('.cm-lintRange-error')).toBe(0);
  });
});
