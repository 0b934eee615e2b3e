/**
 * The person's input in a browser tab's view, forwarded to the page (issue 17 item 2): mouse,
 * wheel, keys and text, as Playwright's mouse and keyboard send them (CDP `Input.*`, the way an
 * act reaches the page too, act-dispatch.ts). The view sends points in the page's CSS pixels,
 * mapped from the scaled picture. Everything here arrives from the editor page: checked first.
 */
import type { Page } from 'playwright-core';
import { ArgumentError, z } from '@vmark/sdk';
import { TIMED_OUT, within } from '../time-bound.js';

/** A page that takes longer than this over one event is not answering; the next event tries again. */
const INPUT_MS = 2000;

const coordinate = z.number().finite().min(-100_000).max(100_000);
const button = z.enum(['left', 'middle', 'right']);

export const personInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('move'), x: coordinate, y: coordinate }).strict(),
  z
    .object({
      type: z.literal('down'),
      x: coordinate,
      y: coordinate,
      button,
      clickCount: z.number().int().min(1).max(3),
    })
    .strict(),
  z
    .object({
      type: z.literal('up'),
      x: coordinate,
      y: coordinate,
      button,
      clickCount: z.number().int().min(1).max(3),
    })
    .strict(),
  z
    .object({ type: z.literal('wheel'), x: coordinate, y: coordinate, dx: coordinate, dy: coordinate })
    .strict(),
  // A KeyboardEvent's `key`: "a", "Enter", "ArrowLeft", "Shift" (modifiers are keys held like any other).
  z.object({ type: z.literal('keydown'), key: z.string().min(1).max(40) }).strict(),
  z.object({ type: z.literal('keyup'), key: z.string().min(1).max(40) }).strict(),
  // Text an input method composed.
  z.object({ type: z.literal('text'), text: z.string().min(1).max(4096) }).strict(),
]);

export type PersonInput = z.infer<typeof personInput>;

/** @throws ArgumentError for an event that is not one. */
export function parsePersonInput(value: unknown): PersonInput {
  const parsed = personInput.safeParse(value);
  if (!parsed.success) throw new ArgumentError(`not an input event: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Sends one event to the page. A key Playwright does not know (a dead key, "Unidentified") is dropped. */
export async function forwardInput(page: Page, input: PersonInput): Promise<void> {
  const work = dispatch(page, input).catch((error: unknown) => {
    if (/Unknown key/i.test(error instanceof Error ? error.message : String(error))) return;
    throw error;
  });
  if ((await within(work, INPUT_MS)) === TIMED_OUT) {
    throw new Error('the page did not take the input in time (a script may be keeping it busy)');
  }
}

function dispatch(page: Page, input: PersonInput): Promise<void> {
  switch (input.type) {
    case 'move':
      return page.mouse.move(input.x, input.y);
    case 'down':
      return page.mouse
        .move(input.x, input.y)
        .then(() => page.mouse.down({ button: input.button, clickCount: input.clickCount }));
    case 'up':
      return page.mouse
        .move(input.x, input.y)
        .then(() => page.mouse.up({ button: input.button, clickCount: input.clickCount }));
    case 'wheel':
      return page.mouse.move(input.x, input.y).then(() => page.mouse.wheel(input.dx, input.dy));
    case 'keydown':
      return page.keyboard.down(input.key);
    case 'keyup':
      return page.keyboard.up(input.key);
    case 'text':
      return page.keyboard.insertText(input.text);
  }
}
