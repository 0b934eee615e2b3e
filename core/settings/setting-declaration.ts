import { z } from '@vmark/sdk';

/**
 * One setting as a manifest declares it under `contributes.settings` (keyed by
 * its dotted key): what it is called, what it does, its type and its default.
 * The settings panel draws its control from this, and a write is checked
 * against it.
 */

/** `section.name`, each part a letter then letters and digits: also the path in settings.json. */
export const SETTING_KEY = /^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)+$/;

const common = {
  title: z.string().min(1).max(80),
  description: z.string().max(600).optional(),
  /** Shown beside the control, highlighted: what turning it on gives away (e.g. an approval). */
  caution: z.string().min(1).max(600).optional(),
};

const booleanSetting = z.strictObject({ type: z.literal('boolean'), default: z.boolean(), ...common });
const enumSetting = z.strictObject({
  type: z.literal('enum'),
  enum: z.array(z.string().min(1)).min(1),
  default: z.string(),
  ...common,
});
const integerSetting = z.strictObject({
  type: z.literal('integer'),
  default: z.number().int(),
  minimum: z.number().int().optional(),
  maximum: z.number().int().optional(),
  ...common,
});
const stringSetting = z.strictObject({
  type: z.literal('string'),
  default: z.string(),
  maxLength: z.number().int().positive().optional(),
  ...common,
});

export const settingDeclaration = z.discriminatedUnion('type', [
  booleanSetting,
  enumSetting,
  integerSetting,
  stringSetting,
]);

export type SettingDeclaration = z.infer<typeof settingDeclaration>;
export type SettingValue = SettingDeclaration['default'];

/** What is wrong with a declaration beyond its shape (bounds, default out of range, key form). */
export function declarationProblems(key: string, declaration: SettingDeclaration): string[] {
  const problems: string[] = [];
  const where = `setting "${key}"`;
  if (!SETTING_KEY.test(key)) {
    problems.push(`${where}: a key is dotted words, e.g. "section.name" (${String(SETTING_KEY)})`);
  }
  if (declaration.type === 'enum') {
    if (new Set(declaration.enum).size !== declaration.enum.length) problems.push(`${where} repeats a value`);
  }
  if (declaration.type === 'integer') {
    const { minimum, maximum } = declaration;
    if (minimum !== undefined && maximum !== undefined && minimum > maximum) {
      // No default could fit, so saying so as well would only repeat this.
      return [...problems, `${where}: minimum ${minimum} is above maximum ${maximum}`];
    }
  }
  const invalid = valueProblem(declaration, declaration.default);
  if (invalid !== undefined) problems.push(`${where}: the default ${invalid}`);
  return problems;
}

/** Why `value` does not fit the declaration, or undefined when it does. */
export function valueProblem(declaration: SettingDeclaration, value: unknown): string | undefined {
  const shown = JSON.stringify(value) ?? String(value);
  switch (declaration.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${shown} is not true or false`;
    case 'enum':
      return typeof value === 'string' && declaration.enum.includes(value)
        ? undefined
        : `${shown} is not one of ${declaration.enum.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'integer': {
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return `${shown} is not a whole number`;
      const { minimum, maximum } = declaration;
      if (minimum !== undefined && value < minimum) return `${shown} is below the minimum ${minimum}`;
      if (maximum !== undefined && value > maximum) return `${shown} is above the maximum ${maximum}`;
      return undefined;
    }
    case 'string':
      if (typeof value !== 'string') return `${shown} is not a string`;
      return declaration.maxLength !== undefined && value.length > declaration.maxLength
        ? `is longer than ${declaration.maxLength} characters`
        : undefined;
  }
}

/** One key must not be the parent of another: settings.json could not hold both. */
export function nestedKeyProblems(keys: readonly string[]): string[] {
  const problems: string[] = [];
  for (const key of keys) {
    const parent = keys.find((other) => other !== key && key.startsWith(`${other}.`));
    if (parent !== undefined) problems.push(`setting "${key}" lies inside setting "${parent}"`);
  }
  return problems;
}
