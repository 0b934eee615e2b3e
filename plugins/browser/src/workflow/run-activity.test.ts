import { describe, expect, it } from 'vitest';
import { stepWords } from './run-activity.js';
import type { StepKind } from './workflow-ir.js';

const step = (kind: StepKind, text: string) => ({ index: 1, kind, text, line: 5 });

describe('stepWords', () => {
  it('says an executable action as it acts: the element named, never the text typed or the input', () => {
    expect(stepWords(step('action', 'click "Add" (button)'))).toBe('click button “Add”');
    expect(stepWords(step('action', 'click "Add"'))).toBe('click element “Add”');
    expect(stepWords(step('action', 'type "Wombat-Kinkajou-6642" into "Notes" (textbox)'))).toBe(
      'type into textbox “Notes”',
    );
    expect(stepWords(step('action', 'type {password} into "Password" (textbox)'))).toBe(
      'type into textbox “Password”',
    );
  });

  it('redacts a URL as the AI sees it, and the quoted text of a step a person or the AI carries out', () => {
    expect(stepWords(step('action', 'navigate to https://u:p@shop.test/cart?token=abc#x'))).toBe(
      'navigate to https://shop.test/cart',
    );
    expect(stepWords(step('goal', 'sign in with "Hunter2-Ocelot-7781" and “864213”'))).toBe(
      'goal: sign in with “…” and “…”',
    );
    expect(stepWords(step('action', 'type "Hunter2-Ocelot-7781 into Name'))).toBe('action: type “…”');
    expect(stepWords(step('confirm', 'enter the code “864213'))).toBe('confirm: enter the code “…”');
    expect(stepWords(step('extract', 'content'))).toBe('extract the page');
  });
});
