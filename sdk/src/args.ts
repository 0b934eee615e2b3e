import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './errors.js';

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

/** The issue parameter that carries the envelope code of `listedValue` (read by the host's argument check). */
const ENVELOPE_PARAM = 'vmarkEnvelope';

/**
 * One of a fixed list of strings, for an argument the seed refuses with a domain envelope
 * rather than a plain string when the value is not on the list (`document.transform`'s
 * `kind`: `INTERNAL` "kind must be one of: …", vmark-notes §2.3). The JSON Schema still
 * lists the values as an enum; a missing or non-string value is the plain
 * "<field> (string) is required".
 */
export function listedValue<const T extends readonly [string, ...string[]]>(
  field: string,
  values: T,
  code: ErrorCode,
): z.ZodType<T[number], string> {
  const listed = new Set<string>(values);
  return z
    .string({ error: `${field} (string) is required` })
    .refine((value) => listed.has(value), {
      error: `${field} must be one of: ${values.join(', ')}`,
      params: { [ENVELOPE_PARAM]: code },
    })
    .transform((value) => value as T[number])
    .meta({ enum: [...values] });
}

/** The envelope code an argument's refusal asks for (see `listedValue`), or undefined for a plain argument error. */
export function envelopeCodeOf(issue: z.core.$ZodIssue): ErrorCode | undefined {
  if (issue.code !== 'custom') return undefined;
  const code: unknown = issue.params?.[ENVELOPE_PARAM];
  return ERROR_CODES.find((known) => known === code);
}
