import { describe, expect, it } from 'vitest';
import { RunClock } from './run-clock.js';

describe('RunClock', () => {
  it('counts running time only: a prompt held open does not spend the budget', () => {
    let now = 1000;
    const clock = new RunClock(100, () => now);
    now += 60;
    clock.pause();
    now += 10_000; // a person deciding
    expect(clock.spent()).toBe(60);
    expect(clock.expired()).toBe(false);
    clock.resume();
    now += 39;
    expect(clock.expired()).toBe(false);
    now += 1;
    expect(clock.spent()).toBe(100);
    expect(clock.expired()).toBe(true);
  });

  it('pauses and resumes idempotently', () => {
    let now = 0;
    const clock = new RunClock(100, () => now);
    clock.pause();
    clock.pause();
    now = 50;
    clock.resume();
    clock.resume();
    now = 70;
    expect(clock.spent()).toBe(20);
  });
});
