/*
 * The canonical encoding the run keys are hashed from (vmark-notes §4.4, `canonicalEncode.ts`):
 * one text per value, whatever order an object's keys were written in, so that two equal
 * workflows or input maps key the same ledger entry. Anything that has no canonical form (a
 * function, a symbol, a class instance, an accessor, a cycle, nesting past 100) is refused.
 */

const MAX_DEPTH = 100;

export function canonicalEncode(value: unknown): string {
  return encode(value, 0, new Set());
}

function encode(value: unknown, depth: number, seen: Set<object>): string {
  if (depth > MAX_DEPTH) throw new TypeError('canonicalEncode: nested more than 100 deep');
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'boolean':
      return String(value);
    case 'bigint':
      return `${value}n`;
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (Number.isNaN(value)) return '#NaN';
      if (!Number.isFinite(value)) return value > 0 ? '#Infinity' : '#-Infinity';
      return Object.is(value, -0) ? '-0' : String(value);
    case 'object':
      break;
    default:
      throw new TypeError(`canonicalEncode: a ${typeof value} has no canonical form`);
  }
  if (value === null) return 'null';
  if (seen.has(value)) throw new TypeError('canonicalEncode: the value refers to itself');
  seen.add(value);
  try {
    if (value instanceof Date) {
      return Number.isNaN(value.getTime()) ? 'Date(invalid)' : `Date(${value.toISOString()})`;
    }
    if (Array.isArray(value)) {
      const items: string[] = [];
      for (let i = 0; i < value.length; i++) {
        items.push(i in value ? encode(value[i], depth + 1, seen) : '#hole');
      }
      return `[${items.join(',')}]`;
    }
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) {
      throw new TypeError('canonicalEncode: a class instance has no canonical form');
    }
    if (Object.getOwnPropertySymbols(value).length > 0) {
      throw new TypeError('canonicalEncode: symbol keys have no canonical form');
    }
    const keys = Object.keys(value).sort();
    const fields = keys.map((key) => {
      const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
      if (!('value' in descriptor)) throw new TypeError('canonicalEncode: an accessor has no canonical form');
      return `${JSON.stringify(key)}:${encode(descriptor.value, depth + 1, seen)}`;
    });
    return `{${fields.join(',')}}`;
  } finally {
    seen.delete(value);
  }
}
