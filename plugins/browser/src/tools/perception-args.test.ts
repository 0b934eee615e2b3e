import { describe, expect, it } from 'vitest';
import { isArgumentError } from '@vmark/sdk';
import { waitTarget } from './perception-args.js';

/* wait_for's "exactly one" rule, with the original's messages (vmark-notes §3.2). */

const message = (args: Parameters<typeof waitTarget>[0]) => {
  try {
    waitTarget(args);
  } catch (error) {
    if (isArgumentError(error)) return error.message;
    throw error;
  }
  return 'accepted';
};

describe('waitTarget', () => {
  it('takes exactly one of ref, role (+name), text, urlContains', () => {
    expect(waitTarget({ ref: 'e3' })).toEqual({ kind: 'ref', ref: 'e3' });
    expect(waitTarget({ role: 'button', name: 'Save' })).toEqual({
      kind: 'role',
      role: 'button',
      name: 'Save',
    });
    expect(waitTarget({ role: 'button' })).toEqual({ kind: 'role', role: 'button' });
    expect(waitTarget({ text: 'Done' })).toEqual({ kind: 'text', text: 'Done' });
    expect(waitTarget({ urlContains: '/checkout' })).toEqual({ kind: 'url', urlContains: '/checkout' });
  });

  it('refuses none, or more than one', () => {
    const exactlyOne = 'wait_for needs exactly one of: ref, role (+optional name), text, or urlContains';
    expect(message({})).toBe(exactlyOne);
    expect(message({ ref: 'e1', text: 'x' })).toBe(exactlyOne);
    expect(message({ role: 'button', urlContains: '/a' })).toBe(exactlyOne);
  });

  it('refuses a name without a role', () => {
    expect(message({ name: 'Save' })).toBe('wait_for: `name` is only valid together with `role`');
    expect(message({ name: 'Save', text: 'x' })).toBe('wait_for: `name` is only valid together with `role`');
  });

  it('refuses a urlContains with ? or #: it is matched against the redacted URL', () => {
    expect(message({ urlContains: '/search?q=1' })).toMatch(/without its query and fragment/);
    expect(message({ urlContains: '#top' })).toMatch(/cannot contain `\?` or `#`/);
  });
});
