import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';

/** The AI side of the approval screenshot: a client of the page's host, and a folder it asks to open. */
export interface ApprovalAsker {
  readonly client: Client;
  /** A folder outside the workspace, so that opening it needs the person's consent. */
  readonly folder: string;
}

/**
 * docs/images/plugin-manager.png and docs/images/approval-dialog.png, taken of
 * a page already showing a `vmark serve` editor. The approval question is
 * denied afterwards, so the host is left as it was.
 */
export async function takePanelScreenshots(page: Page, folder: string, asker: ApprovalAsker): Promise<void> {
  await mkdir(folder, { recursive: true });

  await page.click('.tool-button[data-action=plugins]');
  const manager = page.locator('dialog.plugin-manager[open]');
  await manager.locator('.plugin-card').first().waitFor();
  await page.screenshot({ path: path.join(folder, 'plugin-manager.png') });
  await page.keyboard.press('Escape');
  await manager.waitFor({ state: 'detached' }).catch(() => manager.waitFor({ state: 'hidden' }));

  const asked = asker.client.callTool({
    name: 'workspace',
    arguments: { action: 'open_workspace', folderPath: asker.folder },
  });
  await shootApprovalDialog(page, path.join(folder, 'approval-dialog.png'), asked);
}

/** The approval dialog a call opened, shot at rest, then denied: the call answers, nothing done. */
async function shootApprovalDialog(page: Page, file: string, asked: Promise<unknown>): Promise<void> {
  const dialog = page.locator('dialog.approval-dialog[open]');
  await dialog.waitFor();
  // Its pictures drawn, if it has any.
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLImageElement>('dialog[open] img')].every(
      (image) => image.complete && image.naturalWidth > 0,
    ),
  );
  // Away from the buttons: the shot shows the dialog at rest, Deny as its default.
  await page.mouse.move(0, 0);
  await page.screenshot({ path: file });
  await dialog.locator('[data-answer=deny]').click();
  await asked;
}

/** The page the AI opens for the browser tab shot, served on 127.0.0.1 by the screenshot script. */
export const BROWSER_SHOT_PAGE = `<!doctype html><html lang="en"><title>Reading list</title>
<link rel="icon" href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAJUlEQVR42mPY4ibynxLMACKe5WmQhQepAYTAqAEjw4AhmpQpwQA9+8GXeOEDqAAAAABJRU5ErkJggg==">
<style>body{font:18px/1.5 system-ui,sans-serif;margin:40px 56px;color:#24272d}h1{font-size:30px;margin:0 0 12px}
li{margin:6px 0}button{font:inherit;padding:8px 18px;margin-top:16px}</style>
<h1>Reading list</h1><p>Three papers the AI found for the literature note.</p>
<ol><li>Attention is all you need</li><li>Language models are few-shot learners</li><li>Constitutional AI</li></ol>
<button>Save to notes</button></html>`;

/**
 * docs/images/browser-tab-view.png: an AI's browser tab shown in the editor, taken over by the
 * person (who clicked into the page), then handed back; docs/images/browser-click-approval.png:
 * the dialog for the AI's click on it, with the crop of the page around the button, denied;
 * docs/images/browser-activity.png: the tab's activity list after the AI navigated again — the
 * navigations, the approval denied and the refused click — with the picture of the denied click's
 * moment; then the tab is closed, so the host is left as it was.
 */
export async function takeBrowserTabScreenshot(
  page: Page,
  folder: string,
  client: Client,
  url: string,
): Promise<void> {
  const tabId = await openTab(client, url);
  await page.locator(`.tab.is-provided[data-tab-id="${tabId}"]`).click();
  await page.waitForFunction(
    () => Number(document.querySelector('.browser-tab-view')?.getAttribute('data-frames') ?? 0) > 0,
  );
  const picture = (await page.locator('.bt-picture').boundingBox())!;
  await page.mouse.click(picture.x + picture.width * 0.75, picture.y + picture.height * 0.75);
  await page.locator('.browser-tab-view[data-driver="human"]').waitFor();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(folder, 'browser-tab-view.png') });
  await page.locator('.bt-hand-back').click();
  const clicked = client.callTool({
    name: 'browser',
    arguments: { action: 'act', tabId, operation: 'click', role: 'button', name: 'Save to notes' },
  });
  await shootApprovalDialog(page, path.join(folder, 'browser-click-approval.png'), clicked);
  const view = page.locator('.browser-tab-view');
  // The picture follows its entry (ADR 57): navigating before it is taken would leave none.
  await view
    .locator('.bt-activity li[data-kind="refusal"][data-picture="ready"]')
    .waitFor({ state: 'attached' });
  await client.callTool({ name: 'browser', arguments: { action: 'navigate', tabId, url: `${url}?list=2` } });
  await view.getByRole('button', { name: 'Activity', exact: true }).click();
  await page.waitForFunction(
    () => Number(document.querySelector('.browser-tab-view')?.getAttribute('data-activity') ?? 0) >= 3,
  );
  await view.locator('.bt-activity li[data-kind="refusal"] button').first().click();
  await view.locator('.bt-activity img:not([hidden])').waitFor();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(folder, 'browser-activity.png') });
  await client.callTool({ name: 'browser', arguments: { action: 'close', tabId } });
}

async function openTab(client: Client, url: string): Promise<string> {
  const opened = (await client.callTool({ name: 'browser', arguments: { action: 'open', url } })) as {
    isError?: boolean;
    content: { type: string; text?: string }[];
  };
  const text = opened.content.map((c) => c.text ?? '').join('');
  if (opened.isError === true) throw new Error(`browser open failed: ${text}`);
  return (JSON.parse(text) as { tabId: string }).tabId;
}

/**
 * The note of the rich Live mode shot (ADR 73, 74): a table, math, an image (`specimen.png`, made
 * beside it by the caller), tasks, a callout and a diagram.
 */
export const RICH_SHOT_NOTE = `# Field notes

| Sample | Mass (g) | Energy |
| :--- | ---: | :---: |
| Granite | 412 | $E = mc^2$ |
| Basalt | 388 | $\\tfrac{1}{2}mv^2$ |

![Basalt under the lens](specimen.png)

The mean of $n$ samples is $\\bar{x} = \\frac{1}{n}\\sum_{i=1}^{n} x_i$, and:

$$
\\sigma = \\sqrt{\\frac{1}{n-1}\\sum_{i=1}^{n}(x_i - \\bar{x})^2}
$$

- [x] Weigh the samples
- [ ] Send them to the lab[^1]

> [!warning] Handle with care
> Basalt dust irritates the lungs: wear a mask.

\`\`\`mermaid
graph LR
  A[Collect] --> B{Weigh}
  B -->|ok| C[Lab]
  B -->|broken| D[Discard]
\`\`\`

[^1]: The lab opens on Mondays.
`;

/**
 * docs/images/editor-rich-live.png: `Rich.md` (RICH_SHOT_NOTE, written into the vault by the
 * caller) opened from the file list, in Live mode, once its math and diagram are drawn.
 */
export async function takeRichLiveScreenshot(page: Page, folder: string): Promise<void> {
  await page.locator('.tree-file-row', { hasText: /^\s*Rich(\.md)?\s*$/ }).click();
  await page.locator('.cm-content', { hasText: 'Field notes' }).waitFor();
  await page.click('.mode-switch [data-mode=wysiwyg]');
  await page.locator('.cm-lp-mermaid svg').waitFor();
  await page.locator('.cm-lp-math-block .katex-display').waitFor();
  await page.waitForFunction(() => {
    const image = document.querySelector<HTMLImageElement>('img.cm-lp-image');
    return image !== null && image.complete && image.naturalWidth > 0;
  });
  // The cursor on the blank line under the heading: every line shows as read, none as Markdown.
  await page.locator('.cm-content').focus();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  // Tall enough for the whole note, diagram included.
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1280, height: 1180 });
  await page.locator('.cm-lp-mermaid svg').waitFor();
  await page.evaluate(() => document.fonts.ready);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(folder, 'editor-rich-live.png') });
  if (size !== null) await page.setViewportSize(size);
}
