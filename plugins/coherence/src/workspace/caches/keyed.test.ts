import { describe, expect, it } from 'vitest';
import { Keyed } from './keyed.js';

describe('Keyed', () => {
  it('derives once while the key stays the same, and again when it changes', () => {
    const kept = new Keyed<{ n: number }>();
    let derived = 0;
    const derive = () => ({ n: ++derived });
    const first = kept.get('v1', derive);
    expect(kept.get('v1', derive)).toBe(first);
    expect(kept.get('v2', derive)).toEqual({ n: 2 });
    // Back to an old key: the value kept is only ever the last one.
    expect(kept.get('v1', derive)).toEqual({ n: 3 });
  });

  it('derives again under the same key once the kept value is no longer fresh', () => {
    const kept = new Keyed<{ until: number }>();
    let now = 0;
    const derive = () => ({ until: now + 10 });
    const fresh = (value: { until: number }) => now < value.until;
    const first = kept.get('k', derive, fresh);
    now = 9;
    expect(kept.get('k', derive, fresh)).toBe(first);
    now = 10;
    expect(kept.get('k', derive, fresh)).toEqual({ until: 20 });
  });
});
