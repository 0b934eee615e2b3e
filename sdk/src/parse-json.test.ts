import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseJsonAs } from './parse-json.js';

const point = z.object({ x: z.number(), y: z.number() });

describe('parseJsonAs', () => {
  it('answers the value that fits the schema, without fields the schema does not name', () => {
    expect(parseJsonAs(point, '{"x":1,"y":2,"z":3}')).toEqual({ x: 1, y: 2 });
  });

  it.each([
    ['text that is not JSON', '{"x":1,'],
    ['an empty text', ''],
    ['a value of another shape', '{"x":"1","y":2}'],
    ['null', 'null'],
    ['an array', '[1,2]'],
  ])('answers undefined for %s', (_name, text) => {
    expect(parseJsonAs(point, text)).toBeUndefined();
  });
});
