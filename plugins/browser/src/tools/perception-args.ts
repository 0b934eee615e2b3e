/** Argument schemas of the perception actions (query, wait_for), with the original's messages. */
import { ArgumentError, z } from '@vmark/sdk';
import type { WaitTarget } from '../perception/wait-for.js';

/** Characters a selector may have: a page cannot need more, and a client should not send more. */
const MAX_SELECTOR = 4096;
const STYLE_NAME = /^-{0,2}[A-Za-z][A-Za-z0-9-]{0,63}$/;

export const selectorArg = () =>
  z
    .string({ error: 'query requires a CSS `selector` (string)' })
    .refine((value) => value.trim() !== '', { error: 'query requires a non-empty CSS `selector`' })
    .refine((value) => value.length <= MAX_SELECTOR, {
      error: `selector must be at most ${MAX_SELECTOR} characters`,
    });

export const fieldsArg = () =>
  z
    .strictObject(
      {
        attributes: z.boolean({ error: 'fields.attributes must be a boolean' }).optional(),
        box: z.boolean({ error: 'fields.box must be a boolean' }).optional(),
        styles: z
          .array(
            z.string().regex(STYLE_NAME, { error: 'fields.styles holds CSS property names, e.g. "display"' }),
            { error: 'fields.styles must be an array of CSS property names' },
          )
          .max(32, { error: 'fields.styles takes at most 32 property names' })
          .optional(),
      },
      { error: 'fields must be an object {attributes?: boolean, box?: boolean, styles?: string[]}' },
    )
    .optional();

const nonBlank = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .refine((value) => value.trim() !== '', { error: `${field} must be a non-empty string` })
    .optional();

export const waitForArgs = () => ({
  ref: nonBlank('ref'),
  role: nonBlank('role'),
  name: z.string({ error: 'name must be a string' }).optional(),
  text: nonBlank('text'),
  urlContains: nonBlank('urlContains'),
});

const EXACTLY_ONE = 'wait_for needs exactly one of: ref, role (+optional name), text, or urlContains';

/** The one thing `wait_for` waits for. @throws ArgumentError with the original's messages. */
export function waitTarget(args: {
  ref?: string;
  role?: string;
  name?: string;
  text?: string;
  urlContains?: string;
}): WaitTarget {
  if (args.name !== undefined && args.role === undefined) {
    throw new ArgumentError('wait_for: `name` is only valid together with `role`');
  }
  const given = [args.ref, args.role, args.text, args.urlContains].filter((value) => value !== undefined);
  if (given.length !== 1) throw new ArgumentError(EXACTLY_ONE);
  if (args.ref !== undefined) return { kind: 'ref', ref: args.ref.trim() };
  if (args.role !== undefined) {
    return { kind: 'role', role: args.role.trim(), ...(args.name === undefined ? {} : { name: args.name }) };
  }
  if (args.text !== undefined) return { kind: 'text', text: args.text };
  const needle = args.urlContains!;
  if (/[?#]/.test(needle)) {
    throw new ArgumentError(
      'wait_for: `urlContains` is matched against the URL without its query and fragment (they are never ' +
        'shown), so it cannot contain `?` or `#`; use a part of the path',
    );
  }
  return { kind: 'url', urlContains: needle };
}
