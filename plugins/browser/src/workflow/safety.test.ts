import { describe, expect, it } from 'vitest';
import { type AttemptResult, decideAfterResult } from './safety.js';

describe('decideAfterResult (the safety core, vmark-notes §4.4)', () => {
  const cases: [boolean, AttemptResult, string][] = [
    [true, { outcome: 'success' }, 'done'],
    [false, { outcome: 'success' }, 'done'],
    [true, { outcome: 'success', postconditionMet: false }, 'stop-and-ask'],
    [false, { outcome: 'success', postconditionMet: false }, 'done'],
    // Never an automatic retry of an outcome nobody can vouch for.
    [true, { outcome: 'unknown' }, 'stop-and-ask'],
    [false, { outcome: 'unknown' }, 'stop-and-ask'],
    [false, { outcome: 'failed' }, 'retry'],
    [true, { outcome: 'failed', postconditionMet: true }, 'done'],
    [true, { outcome: 'failed', postconditionMet: false }, 'retry'],
    [true, { outcome: 'failed' }, 'stop-and-ask'],
  ];
  it.each(cases)('write=%s %o → %s', (write, result, decision) => {
    expect(decideAfterResult(write, result)).toBe(decision);
  });

  it('stops and asks at an outcome outside the contract', () => {
    expect(decideAfterResult(true, { outcome: 'maybe' } as unknown as AttemptResult)).toBe('stop-and-ask');
  });
});
