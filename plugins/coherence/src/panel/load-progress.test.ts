import { describe, expect, it } from 'vitest';
import { LoadProgress } from './load-progress.js';

describe('LoadProgress', () => {
  it('holds the latest report while a load runs, and nothing once the last load ends', async () => {
    const loading = new LoadProgress();
    expect(loading.latest).toBeNull();
    let finish = (): void => undefined;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const first = loading.during(async (report) => {
      report(1, 10, 'read 1 of 8 Markdown files');
      report(2, 10); // no message: nothing to show
      await gate;
      return 'done';
    });
    const second = loading.during((report) => {
      report(9, 10, 'read 1 of 1 ledger segments');
      return Promise.resolve('also');
    });
    await second;
    // The first load still runs: its page keeps seeing how far things came.
    expect(loading.latest).toEqual({ done: 9, total: 10, message: 'read 1 of 1 ledger segments' });
    finish();
    expect(await first).toBe('done');
    expect(loading.latest).toBeNull();
  });
});
