/**
 * The values this module writes: the patches' scalars and string lists, and the small
 * mappings the internal kinds build (a new job, a step, a permissions table).
 */
import type { ScalarValue } from './scalar-style.js';

export type YamlValue = ScalarValue | readonly YamlValue[] | YamlRecord;
export interface YamlRecord {
  readonly [key: string]: YamlValue;
}

export function isScalarValue(value: YamlValue): value is ScalarValue {
  return value === null || typeof value !== 'object';
}

export function isYamlRecord(value: YamlValue): value is YamlRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function isYamlList(value: YamlValue): value is readonly YamlValue[] {
  return Array.isArray(value);
}
