import { describe, expect, it } from 'vitest';
import { stepEffect } from './step-effect.js';
import { STEP_KINDS } from './workflow-ir.js';

describe('stepEffect', () => {
  it('calls extract and confirm reads, every other kind a write, and confirm alone not retryable', () => {
    expect(Object.fromEntries(STEP_KINDS.map((kind) => [kind, stepEffect(kind)]))).toEqual({
      api: { write: true, retryable: true },
      action: { write: true, retryable: true },
      goal: { write: true, retryable: true },
      confirm: { write: false, retryable: false },
      extract: { write: false, retryable: true },
    });
  });
});
