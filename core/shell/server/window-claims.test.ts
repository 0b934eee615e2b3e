import { describe, expect, it } from 'vitest';
import { type Schedule, type WindowHost, WindowClaims } from './window-claims.js';

/* Pages and their windows, with the grace period run by hand. */

function setup() {
  const open = new Set(['main']);
  let next = 2;
  const windows: WindowHost = {
    openWindow: () => {
      const label = `w-${next++}`;
      open.add(label);
      return label;
    },
    hasWindow: (label) => open.has(label),
    closeWindow: (label) => void open.delete(label),
  };
  const pending = new Set<() => void>();
  const schedule: Schedule = (run) => {
    pending.add(run);
    return () => pending.delete(run);
  };
  const elapse = () => {
    for (const run of [...pending]) {
      pending.delete(run);
      run();
    }
  };
  let closed = 0;
  const onClosed = () => (closed += 1);
  return {
    open,
    claims: new WindowClaims(windows, schedule, 1000),
    elapse,
    pending,
    onClosed,
    closed: () => closed,
  };
}

describe('WindowClaims', () => {
  it('gives the first page main and later pages new windows', () => {
    const { claims } = setup();
    const [a, b, c] = [{}, {}, {}];
    expect(claims.claim(a, null)).toBe('main');
    expect(claims.claim(b, null)).toBe('w-2');
    expect(claims.claim(c, 'main')).toBe('w-3');
    expect(claims.labelOf(b)).toBe('w-2');
  });

  it('keeps a label across a reload, and closes the window of a page that does not come back', () => {
    const { open, claims, elapse, onClosed, closed } = setup();
    const [first, second] = [{}, {}];
    claims.claim(first, null);
    claims.claim(second, null);
    claims.release(second, onClosed);
    const reloaded = {};
    expect(claims.claim(reloaded, 'w-2')).toBe('w-2');
    elapse();
    expect(open.has('w-2')).toBe(true);
    expect(closed()).toBe(0);
    claims.release(reloaded, onClosed);
    elapse();
    expect(open.has('w-2')).toBe(false);
    expect(closed()).toBe(1);
    // Too late: the window is gone, so the page gets a new one.
    expect(claims.claim({}, 'w-2')).toBe('w-3');
  });

  it('never closes main, and gives it to the next page once free', () => {
    const { open, claims, elapse, pending, onClosed } = setup();
    const page = {};
    claims.claim(page, null);
    claims.release(page, onClosed);
    expect(pending.size).toBe(0);
    elapse();
    expect(open.has('main')).toBe(true);
    expect(claims.claim({}, null)).toBe('main');
  });

  it('refuses labels that are held, unknown or made up, and ignores pages it never saw', () => {
    const { claims, onClosed, pending } = setup();
    const holder = {};
    claims.claim(holder, null);
    claims.claim({}, null);
    expect(claims.claim({}, 'w-2')).toBe('w-3');
    expect(claims.claim({}, 'w-99')).toBe('w-4');
    expect(claims.claim({}, '../etc')).toBe('w-5');
    claims.release({}, onClosed);
    expect(pending.size).toBe(0);
    expect(claims.labelOf(holder)).toBe('main');
  });

  it('cancels pending closes when disposed', () => {
    const { open, claims, pending, onClosed } = setup();
    claims.claim({}, null);
    const page = {};
    claims.claim(page, null);
    claims.release(page, onClosed);
    expect(pending.size).toBe(1);
    claims.dispose();
    expect(pending.size).toBe(0);
    expect(open.has('w-2')).toBe(true);
  });
});
