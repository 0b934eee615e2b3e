/**
 * The gate probe run after each loaded `open` / `navigate` / `wait` (the navigation result's
 * `gateOf`): the signals from the tab's isolated world, classified. It never blocks the result
 * and never fails it — a page that is hung, gone or navigating away answers "no gate".
 */
import type { BrowserTab } from '../tabs/browser-tab.js';
import { TIMED_OUT, within } from '../time-bound.js';
import { classifyGate, type Gate } from './classify-gate.js';
import { COLLECT_GATE_SIGNALS, GATE_LIMITS, gateSignalsOf } from './gate-signals.js';

/** Far more than the collector takes on a 50,000-node page; a hung renderer gets no longer. */
const PROBE_MS = 2000;

export async function probeGate(tab: BrowserTab): Promise<Gate | null> {
  try {
    const answer = await within(tab.world.evaluate<unknown>(COLLECT_GATE_SIGNALS, GATE_LIMITS), PROBE_MS);
    if (answer === TIMED_OUT) return null;
    const signals = gateSignalsOf(answer);
    return signals === null ? null : classifyGate(signals);
  } catch {
    return null;
  }
}
