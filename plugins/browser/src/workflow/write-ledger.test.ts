import { describe, expect, it } from 'vitest';
import { WriteLedger } from './write-ledger.js';

describe('WriteLedger', () => {
  it('keys by (tab, ledger id): another tab or another job is not done', () => {
    const ledger = new WriteLedger();
    ledger.record('tab-1', 'src+in', 3);
    expect(ledger.has('tab-1', 'src+in', 3)).toBe(true);
    expect(ledger.has('tab-1', 'src+in', 2)).toBe(false);
    expect(ledger.has('tab-2', 'src+in', 3)).toBe(false);
    expect(ledger.has('tab-1', 'src+other', 3)).toBe(false);
    ledger.forgetTab('tab-1');
    expect(ledger.has('tab-1', 'src+in', 3)).toBe(false);
  });
});
