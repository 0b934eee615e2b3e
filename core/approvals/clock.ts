import type { ServiceIdentifier } from 'inversify';

/** Milliseconds since the epoch. Injected so that tests can move time instead of waiting for it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Optional: the broker falls back to `systemClock` when nothing is bound. */
export const ClockToken: ServiceIdentifier<Clock> = Symbol.for('vmark.core.Clock');
