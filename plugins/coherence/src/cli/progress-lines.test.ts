import { describe, expect, it } from 'vitest';
import { progressLines } from './progress-lines.js';

describe('progressLines', () => {
  it('stays quiet at first, then says each phase and at most a line a second within one', () => {
    let now = 0;
    const lines: string[] = [];
    const report = progressLines((t) => lines.push(t), { clock: () => now });
    report(1, 100, 'read 1 of 98 Markdown files');
    now = 600;
    report(2, 100, 'read 2 of 98 Markdown files');
    now = 700;
    report(3, 100, 'read 3 of 98 Markdown files');
    now = 1700;
    report(50, 100, 'read 50 of 98 Markdown files');
    now = 1800;
    report(98.5, 100, 'read 1 of 2 ledger segments');
    report(99, 100);
    expect(lines).toEqual([
      'vmark coherence: read 2 of 98 Markdown files\n',
      'vmark coherence: read 50 of 98 Markdown files\n',
      'vmark coherence: read 1 of 2 ledger segments\n',
    ]);
  });
});
