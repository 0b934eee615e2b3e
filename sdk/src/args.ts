import { z } from 'zod';

/**
 * Argument schemas shared by the tools, with the seed's plain-string messages.
 * Identifiers are trimmed; paths are checked non-blank but never trimmed
 * (trailing spaces are legal file names).
 */

/** An optional identifier that, when given, must not be blank (blank would silently mean "focused"). */
export function optionalId(field: string, target: 'tab' | 'window'): z.ZodOptional<z.ZodString> {
  const message = `${field} must be a non-empty string when provided — omit it to target the focused ${target}`;
  return z.string({ error: message }).trim().min(1, { error: message }).optional();
}

/** A required identifier. */
export function requiredId(field: string): z.ZodString {
  const message = `${field} must be a non-empty string`;
  return z.string({ error: message }).trim().min(1, { error: message });
}

/** A file or folder path: required, non-blank, passed on byte for byte. */
export function pathArg(field: string): z.ZodString {
  return z
    .string({ error: `${field} (string) is required` })
    .refine((value) => value.trim() !== '', { error: `${field} must be a non-empty path` });
}

/** A revision token as `session.get_state` and `document.read` hand them out. */
export function revisionArg(field = 'expected_revision'): z.ZodOptional<z.ZodString> {
  const message = `${field} must be a revision token such as "rev-x7Q3aB1F" from your last read`;
  return z
    .string({ error: message })
    .regex(/^rev-[A-Za-z0-9]{8}$/, { error: message })
    .optional();
}

export function requiredString(field: string): z.ZodString {
  return z.string({ error: `${field} (string) is required` });
}

export function optionalBoolean(field: string): z.ZodOptional<z.ZodBoolean> {
  return z.boolean({ error: `${field} must be a boolean` }).optional();
}

export function oneOf<const T extends readonly [string, ...string[]]>(
  field: string,
  values: T,
): z.ZodEnum<{ [K in T[number]]: K }> {
  return z.enum(values, { error: `${field} must be one of: ${values.join(', ')}` });
}
