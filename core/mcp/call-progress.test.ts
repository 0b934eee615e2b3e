import type { ProgressNotificationParams } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CallProgress } from './call-progress.js';

describe('CallProgress', () => {
  let sent: ProgressNotificationParams[];
  const send = (params: ProgressNotificationParams) => {
    sent.push(params);
    return Promise.resolve();
  };
  beforeEach(() => {
    sent = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());
  // The fake clock drives both the interval check and the timer.
  const progress = (token: string | number | undefined) => new CallProgress(token, send, () => Date.now());

  it('sends nothing when the client gave no progressToken', () => {
    const p = progress(undefined);
    p.report(1, 10, 'one');
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([]);
  });

  it('sends the first report at once, with the client’s token, total and message', () => {
    progress(7).report(1, 10, 'read 1 of 10 files');
    expect(sent).toEqual([{ progressToken: 7, progress: 1, total: 10, message: 'read 1 of 10 files' }]);
  });

  it('sends at most one report per 100 ms, the latest of those that came meanwhile', () => {
    const p = progress('tok');
    for (let i = 1; i <= 50; i++) p.report(i, 50);
    expect(sent.map((s) => s.progress)).toEqual([1]);
    vi.advanceTimersByTime(99);
    expect(sent.map((s) => s.progress)).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(sent.map((s) => s.progress)).toEqual([1, 50]);
    vi.advanceTimersByTime(1000);
    expect(sent).toHaveLength(2);
    // Long after the last one, the next goes at once again.
    p.report(51);
    expect(sent.map((s) => s.progress)).toEqual([1, 50, 51]);
  });

  it('drops a report that does not rise, and one that is not a number', () => {
    const p = progress('tok');
    p.report(5);
    vi.advanceTimersByTime(200);
    p.report(5);
    p.report(3);
    p.report(Number.NaN);
    p.report(Number.POSITIVE_INFINITY);
    vi.advanceTimersByTime(200);
    p.report(6, Number.NaN);
    expect(sent).toEqual([
      { progressToken: 'tok', progress: 5 },
      { progressToken: 'tok', progress: 6 },
    ]);
  });

  it('sends nothing once the call has answered, not even what was pending', () => {
    const p = progress('tok');
    p.report(1);
    p.report(2);
    p.close();
    vi.advanceTimersByTime(1000);
    p.report(3);
    expect(sent.map((s) => s.progress)).toEqual([1]);
  });

  it('is reporting only with a token and until the call has answered', () => {
    expect(progress(undefined).reporting).toBe(false);
    const p = progress('tok');
    expect(p.reporting).toBe(true);
    p.close();
    expect(p.reporting).toBe(false);
  });

  it('never throws into the handler when the client is gone', async () => {
    const p = new CallProgress('tok', () => Promise.reject(new Error('Not connected')));
    expect(() => p.report(1)).not.toThrow();
    await vi.runAllTimersAsync();
  });
});
