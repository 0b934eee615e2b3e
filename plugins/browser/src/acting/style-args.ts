/**
 * `style`'s arguments (vmark-notes §3.1), with the original's messages: a target (`ref` or
 * `selector`, never both) for the element operations, and at least one of `set`, `addClasses`,
 * `removeClasses`, `injectCss` (page-wide, so it needs no target; at most 64 KiB of UTF-8).
 */
import { ArgumentError, z } from '@vmark/sdk';
import { refArg } from '../tools/browser-args.js';
import { MAX_SCRIPT_BYTES } from './execute-js.js';

/** A CSS property as `setProperty` takes it: `background-color`, `-webkit-line-clamp`, `--accent`. */
const PROPERTY = /^(--[A-Za-z0-9_-]{1,128}|-?[a-z][a-z0-9-]{0,63})$/;
/** A class as `classList` takes it: no whitespace, not empty. */
const CLASS_NAME = /^[^\s]{1,256}$/;
const MAX_SELECTOR = 4096;
/** Properties or classes in one call: more is not styling a page, it is rewriting one. */
const MAX_ENTRIES = 64;
const MAX_VALUE = 4096;

const classesArg = (field: 'addClasses' | 'removeClasses') =>
  z
    .array(
      z.string({ error: `${field} holds class names (strings)` }).regex(CLASS_NAME, {
        error: (issue) =>
          `${field}: ${JSON.stringify(issue.input)} is not a class name (one word, no spaces, not empty)`,
      }),
      { error: `${field} must be an array of class names` },
    )
    .min(1, { error: `${field} must name at least one class` })
    .max(MAX_ENTRIES, { error: `${field} takes at most ${MAX_ENTRIES} class names` })
    .optional();

export const styleArgs = () => ({
  ref: refArg(),
  selector: z
    .string({ error: 'selector must be a CSS selector (string)' })
    .refine((value) => value.trim() !== '', { error: 'selector must be a non-empty CSS selector' })
    .refine((value) => value.length <= MAX_SELECTOR, {
      error: `selector must be at most ${MAX_SELECTOR} characters`,
    })
    .optional(),
  set: z
    .record(
      z.string(),
      z
        .string({ error: 'set maps CSS property names to values (strings)' })
        .max(MAX_VALUE, { error: `a value in set must be at most ${MAX_VALUE} characters` }),
      { error: 'set must be an object {property: value}, e.g. {"display": "none"}' },
    )
    .refine((value) => Object.keys(value).length > 0, { error: 'set must name at least one property' })
    .refine((value) => Object.keys(value).length <= MAX_ENTRIES, {
      error: `set takes at most ${MAX_ENTRIES} properties`,
    })
    .optional(),
  addClasses: classesArg('addClasses'),
  removeClasses: classesArg('removeClasses'),
  injectCss: z
    .string({ error: 'injectCss must be a string of CSS' })
    .refine((value) => value.trim() !== '', { error: 'injectCss must be non-empty CSS' })
    .refine((value) => Buffer.byteLength(value, 'utf8') <= MAX_SCRIPT_BYTES, {
      error: `injectCss must be at most ${MAX_SCRIPT_BYTES} bytes of UTF-8`,
    })
    .optional(),
});

export type StyleTarget = { readonly ref: string } | { readonly selector: string };

/** What one `style` call does: the element changes (with their target) and the page-wide CSS. */
export interface StyleChange {
  readonly target?: StyleTarget;
  readonly set?: Readonly<Record<string, string>>;
  readonly addClasses?: readonly string[];
  readonly removeClasses?: readonly string[];
  readonly injectCss?: string;
}

/** The change the arguments ask for. @throws ArgumentError with the original's messages. */
export function styleChange(args: {
  ref?: string;
  selector?: string;
  set?: Record<string, string>;
  addClasses?: string[];
  removeClasses?: string[];
  injectCss?: string;
}): StyleChange {
  const { selector, set, addClasses, removeClasses, injectCss } = args;
  const ref = args.ref?.trim();
  if (ref === '') throw new ArgumentError('ref must be a non-empty string (from browser_read read)');
  if (
    set === undefined &&
    addClasses === undefined &&
    removeClasses === undefined &&
    injectCss === undefined
  ) {
    throw new ArgumentError('style requires one of: set, addClasses, removeClasses, injectCss');
  }
  if (ref !== undefined && selector !== undefined) {
    throw new ArgumentError('style takes either `ref` or `selector`, not both');
  }
  const onElements = set !== undefined || addClasses !== undefined || removeClasses !== undefined;
  if (onElements && ref === undefined && selector === undefined) {
    throw new ArgumentError(
      'style needs a `ref` (from read) or a `selector` for set, addClasses and removeClasses ' +
        '(injectCss alone is page-wide and needs neither)',
    );
  }
  if (!onElements && (ref !== undefined || selector !== undefined)) {
    throw new ArgumentError(
      'injectCss is page-wide, not scoped to a `ref` or `selector`: leave them out, or add set, addClasses ' +
        'or removeClasses for the element',
    );
  }
  const badProperty = Object.keys(set ?? {}).find((property) => !PROPERTY.test(property));
  if (badProperty !== undefined) {
    throw new ArgumentError(
      `set: ${JSON.stringify(badProperty)} is not a CSS property name (e.g. "display", "background-color", "--accent")`,
    );
  }
  const both = addClasses?.find((name) => removeClasses?.includes(name));
  if (both !== undefined) {
    throw new ArgumentError(`style cannot both add and remove the class ${JSON.stringify(both)}`);
  }
  return {
    ...(ref !== undefined ? { target: { ref } } : selector !== undefined ? { target: { selector } } : {}),
    ...(set === undefined ? {} : { set }),
    ...(addClasses === undefined ? {} : { addClasses }),
    ...(removeClasses === undefined ? {} : { removeClasses }),
    ...(injectCss === undefined ? {} : { injectCss }),
  };
}
