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
  const dialog = page.locator('dialog.approval-dialog[open]');
  await dialog.waitFor();
  // Away from the buttons: the shot shows the dialog at rest, Deny as its default.
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(folder, 'approval-dialog.png') });
  await dialog.locator('[data-answer=deny]').click();
  await asked;
}
