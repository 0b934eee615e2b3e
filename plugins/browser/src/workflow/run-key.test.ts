import { describe, expect, it } from 'vitest';
import { canonicalEncode } from './canonical-encode.js';
import { parseWorkflow } from './parse-workflow.js';
import { inputsHash, ledgerId, runHash, sourceHash } from './run-key.js';
import type { Workflow } from './workflow-ir.js';

const parsed = (source: string): Workflow => {
  const result = parseWorkflow(source);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.workflow;
};

describe('canonicalEncode', () => {
  it('writes one text per value, object keys sorted', () => {
    expect(canonicalEncode({ b: 1, a: [true, null, undefined, 'x'] })).toBe(
      '{"a":[true,null,undefined,"x"],"b":1}',
    );
    expect(canonicalEncode([NaN, Infinity, -0, 2n])).toBe('[#NaN,#Infinity,-0,2n]');
    // eslint-disable-next-line no-sparse-arrays
    expect(canonicalEncode([1, , 3])).toBe('[1,#hole,3]');
    expect(canonicalEncode(new Date(0))).toBe('Date(1970-01-01T00:00:00.000Z)');
  });

  it('refuses what has no canonical form', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalEncode(cycle)).toThrow(/itself/);
    expect(() => canonicalEncode(() => 1)).toThrow(/function/);
    expect(() => canonicalEncode(new Map())).toThrow(/class instance/);
    expect(() =>
      canonicalEncode({
        get x() {
          return 1;
        },
      }),
    ).toThrow(/accessor/);
    let deep: unknown = 1;
    for (let i = 0; i < 102; i++) deep = [deep];
    expect(() => canonicalEncode(deep)).toThrow(/100/);
  });
});

describe('the completed-write ledger key', () => {
  const source =
    '---\nsite: shop\ninputs: [b, a]\n---\n1. action: click "Go" (button)\n2. extract: content\n';

  it('is two FNV-1a mixes in base 36', () => {
    expect(runHash('')).toBe(`${(2166136261).toString(36)}:${(0x9e3779b9).toString(36)}`);
    expect(runHash('a')).toMatch(/^[0-9a-z]+:[0-9a-z]+$/);
    expect(runHash('a')).not.toBe(runHash('b'));
  });

  it('hashes the parsed workflow: list markers, spacing, comments and unknown keys do not count', () => {
    const same =
      '---\nsite: shop\nowner: me\ninputs: [b, a]\n---\n# a comment\n- action:   click "Go" (button)\n\n   extract: content\n';
    expect(sourceHash(parsed(same))).toBe(sourceHash(parsed(source)));
    expect(sourceHash(parsed(source.replace('Go', 'Stop')))).not.toBe(sourceHash(parsed(source)));
    expect(sourceHash(parsed(source.replace('site: shop', 'site: other')))).not.toBe(
      sourceHash(parsed(source)),
    );
  });

  it('hashes the inputs whatever order they come in; the ledger id joins both with +', () => {
    expect(inputsHash({ a: '1', b: '2' })).toBe(inputsHash({ b: '2', a: '1' }));
    expect(inputsHash({ a: '1', b: '2' })).not.toBe(inputsHash({ a: '1', b: '3' }));
    const workflow = parsed(source);
    expect(ledgerId(workflow, { a: '1', b: '2' })).toBe(
      `${sourceHash(workflow)}+${inputsHash({ a: '1', b: '2' })}`,
    );
  });
});
