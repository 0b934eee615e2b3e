import { describe, expect, it } from 'vitest';
import { parseActionText } from './action-text.js';
import { parseWorkflow } from './parse-workflow.js';
import { printWorkflow } from './print-workflow.js';
import { recordingSite, recordingToWorkflow, type RecordedEvent } from './recording-to-workflow.js';

const record = (events: RecordedEvent[], site?: string, trigger?: string) =>
  printWorkflow(
    recordingToWorkflow({ events, ...(site !== undefined ? { site } : {}), ...(trigger ? { trigger } : {}) }),
  );

describe('the recorder output format of §4.3, byte for byte', () => {
  it('writes every sort of step', () => {
    const source = record(
      [
        { type: 'navigate', url: 'https://shop.example/login?next=%2Fcart#top' },
        { type: 'type', name: 'Email', role: 'textbox', sensitive: false },
        { type: 'type', name: 'Password', role: 'textbox', sensitive: true },
        { type: 'type', name: 'One-time code', sensitive: true },
        { type: 'click', name: 'Sign in', role: 'Button' },
        { type: 'click', name: 'Fancy tile' },
        { type: 'click', name: 'Menu', role: 'menuitem-radio' },
        { type: 'navigate', url: 'https://shop.example/reset-password/abc' },
        { type: 'navigate', url: 'https://user:pw@shop.example/a/b?token=1' },
        { type: 'navigate', url: 'javascript:alert(1)' },
        { type: 'navigate', url: 'not a url' },
        { type: 'type', name: 'Search', role: 'searchbox', sensitive: false },
        { type: 'type', name: 'Email', sensitive: false },
        { type: 'extract' },
      ],
      'shop',
    );
    expect(source).toBe(
      [
        '---',
        'site: shop',
        'inputs: [Email, Search, Email_2]',
        '---',
        '1. action: navigate to https://shop.example/login',
        '2. action: type {Email} into "Email" (textbox)',
        '3. confirm: enter "Password"',
        '4. confirm: enter "One-time code"',
        '5. action: click "Sign in" (button)',
        '6. confirm: click "Fancy tile" by hand — the recorder could not map it to an ARIA control',
        '7. confirm: click "Menu" by hand — the recorder could not map it to an ARIA control',
        '8. action: navigate to https://shop.example',
        '9. action: navigate to https://shop.example/a/b',
        '10. action: navigate',
        '11. action: navigate',
        '12. action: type {Search} into "Search" (searchbox)',
        '13. action: type {Email_2} into "Email"',
        '14. extract: content',
        '',
      ].join('\n'),
    );
    const parsed = parseWorkflow(source);
    expect(parsed.ok && parsed.warnings).toEqual([]);
  });

  it('JSON-quotes names and caps them at 120 characters', () => {
    const name = `say "hi"\n${'名'.repeat(200)}`;
    const source = record([{ type: 'click', name, role: 'link' }]);
    const quoted = JSON.stringify([...name].slice(0, 120).join(''));
    expect(source).toBe(`---\nsite: recording\n---\n1. action: click ${quoted} (link)\n`);
    const parsed = parseWorkflow(source);
    const action = parsed.ok ? parseActionText(parsed.workflow.steps[0]!.text) : null;
    expect(action).toEqual({
      ok: true,
      command: { verb: 'click', target: { name: [...name].slice(0, 120).join(''), role: 'link' } },
    });
  });

  it('escapes the braces of a name, so a page cannot make an {input} reference', () => {
    const source = record([{ type: 'click', name: 'Send {password}', role: 'button' }]);
    expect(source).toBe(
      '---\nsite: recording\n---\n1. action: click "Send \\u007bpassword\\u007d" (button)\n',
    );
    const parsed = parseWorkflow(source);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.ok && parseActionText(parsed.workflow.steps[0]!.text)).toMatchObject({
      command: { target: { name: 'Send {password}' } },
    });
  });

  it('names a field with no usable label by its event number', () => {
    expect(
      record([
        { type: 'navigate', url: 'https://a.example/' },
        { type: 'type', name: '搜索', role: 'textbox', sensitive: false },
      ]),
    ).toBe(
      '---\nsite: recording\ninputs: [field_2]\n---\n1. action: navigate to https://a.example/\n2. action: type {field_2} into "搜索" (textbox)\n',
    );
  });

  it('writes the trigger after the inputs', () => {
    expect(record([{ type: 'extract' }], 'news', 'manual')).toBe(
      '---\nsite: news\ntrigger: manual\n---\n1. extract: content\n',
    );
  });

  it('makes the site one line of at most 64 characters, recording when empty', () => {
    expect(recordingSite(undefined)).toBe('recording');
    expect(recordingSite('  \n ')).toBe('recording');
    expect(recordingSite(' my\r\nsite ')).toBe('my site');
    expect(recordingSite('s'.repeat(100))).toBe('s'.repeat(64));
  });

  it('writes an empty recording that the parser refuses with no-steps', () => {
    const source = record([]);
    expect(source).toBe('---\nsite: recording\n---\n');
    const parsed = parseWorkflow(source);
    expect(parsed.ok ? [] : parsed.errors.map((e) => e.code)).toEqual(['no-steps']);
  });

  it('gives each step the line it is printed on', () => {
    const workflow = recordingToWorkflow({
      trigger: 't',
      events: [{ type: 'type', name: 'Q', sensitive: false }, { type: 'extract' }],
    });
    const parsed = parseWorkflow(printWorkflow(workflow));
    expect(parsed.ok && parsed.workflow).toEqual(workflow);
  });
});

describe('printWorkflow', () => {
  it('refuses an IR it could not print faithfully', () => {
    const base = { site: 's', inputs: [], steps: [] };
    expect(() => printWorkflow({ ...base, site: 'a\nb' })).toThrow(/site must be one/);
    expect(() => printWorkflow({ ...base, trigger: '' })).toThrow(/trigger/);
    expect(() => printWorkflow({ ...base, inputs: ['a,b'] })).toThrow(/input name/);
    expect(() =>
      printWorkflow({ ...base, steps: [{ index: 1, kind: 'goal', text: ' x', line: 4 }] }),
    ).toThrow(/step 1/);
  });
});
