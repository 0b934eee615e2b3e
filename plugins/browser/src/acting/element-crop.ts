/**
 * A picture of the element an act would change, for the person asked to allow it: the page
 * around the element's box (MARGIN CSS pixels each side, inside the viewport), captured by the
 * browser (CDP `Page.captureScreenshot`, no DOM read) as a PNG at most MAX_WIDTH × MAX_HEIGHT,
 * made smaller until it fits the SDK's bound. Only an illustration: when it cannot be had the
 * dialog goes without it — the subject still names the element.
 */
import { APPROVAL_IMAGE_PREFIX, MAX_APPROVAL_IMAGE_CHARS } from '@vmark/sdk';
import type { BrowserTab } from '../tabs/browser-tab.js';
import { pagePoint } from './act-dispatch.js';
import type { Located } from './act-target.js';
import type { ViewBox } from './act-verify.js';

const MARGIN = 40;
const MAX_WIDTH = 400;
const MAX_HEIGHT = 300;
/** Shares of the fitted size, tried in turn until the PNG fits. */
const SIZES = [1, 0.6, 0.35];

export async function elementCrop(tab: BrowserTab, located: Located): Promise<string | undefined> {
  try {
    const box = await located.document.world.library<ViewBox | null | string>(
      located.document.frameId,
      'act',
      'visibleBox',
      [tab.generation, located.ref],
    );
    if (box === null || typeof box === 'string') return undefined;
    // The box is in its frame's viewport; the capture is of the page's.
    const topLeft = await pagePoint(tab, located.document, { x: box.left, y: box.top });
    const session = await tab.world.session();
    const { cssVisualViewport: view } = await session.send('Page.getLayoutMetrics');
    const left = Math.max(0, topLeft.x - MARGIN);
    const top = Math.max(0, topLeft.y - MARGIN);
    const width = Math.min(view.clientWidth, topLeft.x + (box.right - box.left) + MARGIN) - left;
    const height = Math.min(view.clientHeight, topLeft.y + (box.bottom - box.top) + MARGIN) - top;
    if (width < 1 || height < 1) return undefined;
    const fit = Math.min(1, MAX_WIDTH / width, MAX_HEIGHT / height);
    for (const size of SIZES) {
      const { data } = await session.send('Page.captureScreenshot', {
        format: 'png',
        clip: { x: view.pageX + left, y: view.pageY + top, width, height, scale: fit * size },
        captureBeyondViewport: false,
      });
      const image = APPROVAL_IMAGE_PREFIX + data;
      if (data.length > 0 && image.length <= MAX_APPROVAL_IMAGE_CHARS) return image;
    }
    return undefined;
  } catch {
    return undefined; // A page that cannot be captured now is still asked about, by its words.
  }
}
