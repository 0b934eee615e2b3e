/**
 * `browser_read screenshot`: the visible part of the page, captured by the browser (CDP
 * `Page.captureScreenshot`) — no DOM is read — as a JPEG small enough for the output bound:
 * at most MAX_WIDTH × MAX_HEIGHT CSS pixels, the quality lowered and then the size reduced
 * until the image fits IMAGE_BUDGET.
 */
import { ContentResult, TokenError } from '@vmark/sdk';
import type { IsolatedWorld } from './isolated-world.js';

const MAX_WIDTH = 1280;
const MAX_HEIGHT = 1280;
/** Base64 characters of the image at most: well under the 75,000-byte output bound. */
export const IMAGE_BUDGET = 60_000;
/** Tried in turn until one fits: quality, and the share of the (already bounded) size. */
const ATTEMPTS = [
  { quality: 70, size: 1 },
  { quality: 50, size: 1 },
  { quality: 40, size: 0.75 },
  { quality: 35, size: 0.5 },
  { quality: 30, size: 0.35 },
];

export async function screenshot(world: IsolatedWorld, url: string): Promise<ContentResult> {
  const session = await world.session();
  const { cssVisualViewport: view } = await session.send('Page.getLayoutMetrics');
  const fit = Math.min(1, MAX_WIDTH / view.clientWidth, MAX_HEIGHT / view.clientHeight);
  let data = '';
  for (const attempt of ATTEMPTS) {
    ({ data } = await session.send('Page.captureScreenshot', {
      format: 'jpeg',
      quality: attempt.quality,
      clip: {
        x: view.pageX,
        y: view.pageY,
        width: view.clientWidth,
        height: view.clientHeight,
        scale: fit * attempt.size,
      },
      captureBeyondViewport: false,
      optimizeForSpeed: true,
    }));
    if (data.length > 0 && data.length <= IMAGE_BUDGET) break;
  }
  if (data.length === 0) throw new TokenError('SCREENSHOT_FAILED', 'screenshot returned no image data');
  if (data.length > IMAGE_BUDGET) {
    throw new TokenError(
      'SCREENSHOT_FAILED',
      'the page could not be captured small enough for the output bound',
    );
  }
  return new ContentResult([
    { type: 'text', text: `Screenshot of ${url}` },
    { type: 'image', data, mimeType: 'image/jpeg' },
  ]);
}
