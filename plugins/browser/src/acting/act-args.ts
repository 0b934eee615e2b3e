/**
 * `act`'s arguments, checked with the original's messages (vmark-notes §3.1): which target each
 * operation takes, and what else it needs. The schema checks each field; `actRequest` the rules
 * between them, and turns them into one request a later step cannot misread.
 */
import { ArgumentError, z } from '@vmark/sdk';
import { refArg } from '../tools/browser-args.js';

export type ActOperation = 'click' | 'type' | 'scroll' | 'key';

export interface Modifiers {
  readonly ctrl?: boolean;
  readonly shift?: boolean;
  readonly alt?: boolean;
  readonly meta?: boolean;
}

/** An element, as a ref from a read or as its role and accessible name. */
export type ActTarget =
  | { readonly kind: 'ref'; readonly ref: string }
  | { readonly kind: 'role'; readonly role: string; readonly name: string };

export type ActRequest =
  | { readonly operation: 'click'; readonly target: ActTarget }
  | { readonly operation: 'type'; readonly target: ActTarget; readonly text: string }
  | { readonly operation: 'scroll'; readonly target: ActTarget | null; readonly dy?: number }
  | {
      readonly operation: 'key';
      readonly target: ActTarget | null;
      readonly key: string;
      readonly modifiers: Modifiers;
    };

const OPERATION = "act operation must be 'click', 'type', 'scroll', or 'key'";
const BOTH = 'act takes either `ref` or `role`+`name`, not both';
const NEITHER = 'act requires a `ref` (from read) or both `role` and `name`';
const TEXT = "act operation 'type' requires a 'text' string (pass \"\" to intentionally clear the field)";
const SCROLL = 'scroll requires exactly one of a `ref` (from read) or a numeric `dy` pixel delta';
const KEY = 'act operation \'key\' requires a non-empty `key` name (e.g. "Enter")';
/** Key names beyond single characters (the DOM's `KeyboardEvent.key` values a page reacts to). */
const KEY_NAMES = new Set([
  'Enter',
  'Tab',
  'Escape',
  'Backspace',
  'Delete',
  'Insert',
  'Space',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'ContextMenu',
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
]);
/** Text typed in one act: a field is not a file. */
const MAX_TEXT = 64 * 1024;

const flag = (name: string) => z.boolean({ error: `modifiers.${name} must be a boolean` }).optional();

export const actArgs = () => ({
  operation: z.enum(['click', 'type', 'scroll', 'key'], { error: OPERATION }),
  ref: refArg(),
  role: z.string({ error: 'role must be a string (e.g. "button")' }).optional(),
  name: z.string({ error: 'name must be a string (the accessible name, as read lists it)' }).optional(),
  text: z
    .string({ error: TEXT })
    .max(MAX_TEXT, { error: `text must be at most ${MAX_TEXT} characters` })
    .optional(),
  dy: z.number({ error: SCROLL }).optional(),
  key: z.string({ error: KEY }).optional(),
  modifiers: z
    .strictObject(
      { ctrl: flag('ctrl'), shift: flag('shift'), alt: flag('alt'), meta: flag('meta') },
      { error: 'modifiers must be an object {ctrl?, shift?, alt?, meta?} of booleans' },
    )
    .optional(),
});

export interface ActArgs {
  readonly operation: ActOperation;
  readonly ref?: string;
  readonly role?: string;
  readonly name?: string;
  readonly text?: string;
  readonly dy?: number;
  readonly key?: string;
  readonly modifiers?: Modifiers;
}

/** The one request the arguments make. @throws ArgumentError with the original's messages. */
export function actRequest(args: ActArgs): ActRequest {
  switch (args.operation) {
    case 'click':
      return { operation: 'click', target: elementTarget(args) };
    case 'type': {
      const target = elementTarget(args);
      if (args.text === undefined) throw new ArgumentError(TEXT);
      return { operation: 'type', target, text: args.text };
    }
    case 'scroll': {
      const ref = present(args.ref);
      const hasDy = args.dy !== undefined;
      if ((ref === undefined) === !hasDy) throw new ArgumentError(SCROLL);
      if (hasDy && !Number.isFinite(args.dy)) throw new ArgumentError(SCROLL);
      if (args.role !== undefined || args.name !== undefined) throw new ArgumentError(SCROLL);
      return ref === undefined
        ? { operation: 'scroll', target: null, dy: args.dy! }
        : { operation: 'scroll', target: { kind: 'ref', ref } };
    }
    case 'key': {
      const key = args.key?.trim() ?? '';
      if (key === '') throw new ArgumentError(KEY);
      if ([...key].length !== 1 && !KEY_NAMES.has(key)) {
        throw new ArgumentError(
          `unknown key "${key.slice(0, 40)}"; use a key name such as "Enter", "Escape", "Tab", "ArrowDown", or one character`,
        );
      }
      const targeted = present(args.ref) ?? present(args.role) ?? args.name;
      return {
        operation: 'key',
        // A key may go to an element (as a ref, or by role and name, as a click's target) or to the page.
        target: targeted === undefined ? null : elementTarget(args),
        key,
        modifiers: args.modifiers ?? {},
      };
    }
  }
}

function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function elementTarget(args: ActArgs): ActTarget {
  const ref = present(args.ref);
  const role = present(args.role);
  const name = args.name;
  if (ref !== undefined && (role !== undefined || name !== undefined)) throw new ArgumentError(BOTH);
  if (ref !== undefined) return { kind: 'ref', ref };
  if (role === undefined || name === undefined || name.trim() === '') throw new ArgumentError(NEITHER);
  return { kind: 'role', role, name };
}
