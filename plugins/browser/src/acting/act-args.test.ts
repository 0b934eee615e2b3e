import { isArgumentError } from '@vmark/sdk';
import { describe, expect, it } from 'vitest';
import { type ActArgs, actRequest } from './act-args.js';

const refusal = (args: ActArgs) => {
  try {
    actRequest(args);
  } catch (error) {
    if (isArgumentError(error)) return error.message;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(args)}`);
};

describe('actRequest', () => {
  it('turns each operation into one request', () => {
    expect(actRequest({ operation: 'click', role: 'button', name: 'Go' })).toEqual({
      operation: 'click',
      target: { kind: 'role', role: 'button', name: 'Go' },
    });
    expect(actRequest({ operation: 'type', ref: ' e4 ', text: '' })).toEqual({
      operation: 'type',
      target: { kind: 'ref', ref: 'e4' },
      text: '',
    });
    expect(actRequest({ operation: 'scroll', dy: -120 })).toEqual({
      operation: 'scroll',
      target: null,
      dy: -120,
    });
    expect(actRequest({ operation: 'scroll', ref: 'e2' })).toEqual({
      operation: 'scroll',
      target: { kind: 'ref', ref: 'e2' },
    });
    expect(actRequest({ operation: 'key', key: 'Enter', modifiers: { ctrl: true } })).toEqual({
      operation: 'key',
      target: null,
      key: 'Enter',
      modifiers: { ctrl: true },
    });
    expect(actRequest({ operation: 'key', key: 'a', role: 'textbox', name: 'Search' })).toMatchObject({
      target: { kind: 'role', role: 'textbox', name: 'Search' },
    });
  });

  it('refuses what the original refuses, in its words', () => {
    expect(refusal({ operation: 'click', ref: 'e1', name: 'Go' })).toBe(
      'act takes either `ref` or `role`+`name`, not both',
    );
    expect(refusal({ operation: 'click', role: 'button', name: '  ' })).toBe(
      'act requires a `ref` (from read) or both `role` and `name`',
    );
    expect(refusal({ operation: 'click', ref: '  ' })).toBe(
      'act requires a `ref` (from read) or both `role` and `name`',
    );
    expect(refusal({ operation: 'scroll', dy: Number.POSITIVE_INFINITY })).toBe(
      'scroll requires exactly one of a `ref` (from read) or a numeric `dy` pixel delta',
    );
    expect(refusal({ operation: 'scroll', role: 'button', name: 'Go', dy: 5 })).toBe(
      'scroll requires exactly one of a `ref` (from read) or a numeric `dy` pixel delta',
    );
    expect(refusal({ operation: 'key', key: 'Hyper' })).toMatch(/^unknown key "Hyper"/);
  });
});
