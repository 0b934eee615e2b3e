/**
 * Notes an entry in a tab's activity with a picture of the page as it is now (ADR 53): a small
 * JPEG of the viewport, taken within a bound — a page that cannot be pictured gets an entry
 * without one, and the tool's answer never waits long or fails for it.
 */
import { isRefusal, isTokenError } from '@vmark/sdk';
import type { BrowserTab } from './browser-tab.js';
import type { ActivityEntry } from './tab-activity.js';

const PICTURE_MS = 1500;
const PICTURE_QUALITY = 40;

export async function noteActivity(
  tab: BrowserTab,
  entry: Omit<ActivityEntry, 'id' | 'at' | 'url'>,
): Promise<void> {
  if (tab.closed !== null) return;
  const picture = await tab.page
    .screenshot({
      type: 'jpeg',
      quality: PICTURE_QUALITY,
      scale: 'css',
      timeout: PICTURE_MS,
      animations: 'allow',
    })
    .catch(() => null);
  tab.activity.add({ ...entry, url: tab.url }, picture);
}

/** What an act or navigation that threw comes to in the activity: the person's answer, or the token. */
export function refusalOf(error: unknown): string {
  if (isRefusal(error) && error.structured.needsApproval === true)
    return error.structured.denied === true ? 'approval denied' : 'approval asked, not answered yet';
  return isTokenError(error) ? error.token : 'error';
}
