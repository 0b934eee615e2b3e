import {
  defineAction,
  defineTool,
  listedValue,
  optionalBoolean,
  optionalId,
  requiredId,
  requiredString,
  z,
} from '@vmark/sdk';
import { startTestHost, type TestHost, toolPlugin } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/*
 * The argument checks a composite tool applies, seen from a real MCP client:
 * the MCP SDK checks types against the tool's flat schema, then the host checks
 * what the chosen action needs. Argument-shape errors are plain strings.
 */

/** What the handlers received, in call order. */
let received: { action: string; args: Record<string, unknown> }[] = [];

const record =
  (action: string) =>
  (args: Record<string, unknown>): Record<string, unknown> => {
    received.push({ action, args });
    return { ok: true, action };
  };

const notes = defineTool({
  name: 'notes',
  title: 'Test Notes',
  description: 'A tool used by the argument-check tests',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  actions: {
    read: defineAction({ args: { tabId: optionalId('tabId', 'tab') }, run: record('read') }),
    write: defineAction({
      args: {
        content: requiredString('content'),
        tabId: optionalId('tabId', 'tab'),
        save: optionalBoolean('save'),
      },
      run: record('write'),
    }),
    search: defineAction({
      args: { query: z.string(), limit: z.number().int().optional() },
      run: record('search'),
    }),
    ping: defineAction({ args: {}, run: record('ping') }),
    // Required here, optional in read and write: one `tabId` property serves all three.
    close: defineAction({ args: { tabId: requiredId('tabId') }, run: record('close') }),
    focus: defineAction({ args: { windowLabel: requiredId('windowLabel') }, run: record('focus') }),
    open: defineAction({ args: { windowLabel: optionalId('windowLabel', 'window') }, run: record('open') }),
    tint: defineAction({
      args: { shade: listedValue('shade', ['light', 'dark'], 'INTERNAL') },
      run: record('tint'),
    }),
  },
});

const lenient = defineTool({
  name: 'lenient',
  title: 'Lenient',
  description: 'Ignores arguments it does not take',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  extraArgs: 'ignore',
  actions: { status: defineAction({ args: {}, run: record('status') }) },
});

let kit: TestHost;

beforeEach(async () => {
  received = [];
  kit = await startTestHost({
    plugins: [toolPlugin('arg-test', [notes, lenient])],
  });
});

afterEach(async () => {
  await kit.dispose();
});

describe('argument checks', () => {
  it('hands an action exactly the arguments it declares, with identifiers trimmed', async () => {
    const out = await kit.call('notes', {
      action: 'write',
      content: '  body  ',
      tabId: '  tab-1 ',
      save: true,
    });
    expect(out.isError).toBe(false);
    expect(received).toEqual([
      { action: 'write', args: { content: '  body  ', tabId: 'tab-1', save: true } },
    ]);
  });

  it('lets optional arguments be left out', async () => {
    const out = await kit.call('notes', { action: 'read' });
    expect(out.isError).toBe(false);
    expect(received).toEqual([{ action: 'read', args: {} }]);
  });

  describe('a missing required argument', () => {
    it('is refused with the plain string "content (string) is required"', async () => {
      const out = await kit.call('notes', { action: 'write' });
      expect(out).toMatchObject({
        isError: true,
        text: 'content (string) is required',
        structured: undefined,
      });
      expect(received).toEqual([]);
    });

    it('is named with its type even when its schema has no message of its own', async () => {
      const out = await kit.call('notes', { action: 'search' });
      expect(out).toMatchObject({ isError: true, text: 'query (string) is required', structured: undefined });
    });
  });

  describe('an argument the action does not take', () => {
    it('is refused when it belongs to another action, with a plain string naming it and what the action takes', async () => {
      const out = await kit.call('notes', { action: 'read', content: 'x' });
      expect(out).toMatchObject({
        isError: true,
        text: 'content is not an argument of notes.read; it takes: tabId',
        structured: undefined,
      });
      expect(received).toEqual([]);
    });

    it('names every such argument at once', async () => {
      const out = await kit.call('notes', { action: 'read', content: 'x', query: 'y' });
      expect(out.text).toBe('content, query are not arguments of notes.read; it takes: tabId');
    });

    it('says when the action takes no arguments at all', async () => {
      const out = await kit.call('notes', { action: 'ping', tabId: 't1' });
      expect(out.text).toBe('tabId is not an argument of notes.ping; it takes no arguments');
    });

    it('is refused when no action of the tool declares it', async () => {
      const out = await kit.call('notes', { action: 'read', bogus: 1 });
      expect(out.isError).toBe(true);
      expect(out.text).toContain('bogus');
      expect(out.structured).toBeUndefined();
      expect(received).toEqual([]);
    });

    it('is dropped instead on a tool that ignores extra arguments', async () => {
      const out = await kit.call('lenient', { action: 'status', stray: true, tabId: '' });
      expect(out.isError).toBe(false);
      expect(received).toEqual([{ action: 'status', args: {} }]);
    });
  });

  describe('the action', () => {
    it('is refused when it is not one of the tool\u2019s, listing the ones it has', async () => {
      const out = await kit.call('notes', { action: 'x' });
      expect(out.isError).toBe(true);
      expect(out.text).toContain(
        'Invalid action: x. Expected: read, write, search, ping, close, focus, open, tint',
      );
      expect(out.structured).toBeUndefined();
      expect(received).toEqual([]);
    });

    it('is required', async () => {
      const out = await kit.call('notes', { content: 'x' });
      expect(out.isError).toBe(true);
      expect(out.text).toContain(
        'action (string) is required; expected: read, write, search, ping, close, focus, open, tint',
      );
      expect(received).toEqual([]);
    });
  });

  describe('an optional identifier', () => {
    it.each(['', '   ', '\t'])(
      'supplied blank (%j) is refused, never taken to mean "the focused tab"',
      async (tabId) => {
        const out = await kit.call('notes', { action: 'read', tabId });
        expect(out.isError).toBe(true);
        expect(out.text).toContain(
          'tabId must be a non-empty string when provided — omit it to target the focused tab',
        );
        expect(received).toEqual([]);
      },
    );

    it('of the wrong type is refused with the same message', async () => {
      const out = await kit.call('notes', { action: 'read', tabId: 42 });
      expect(out.isError).toBe(true);
      expect(out.text).toContain('tabId must be a non-empty string when provided');
    });
  });

  describe('an identifier one action requires and another takes optionally', () => {
    it.each([
      ['close', 'tabId', 'tabId must be a non-empty string'],
      ['focus', 'windowLabel', 'windowLabel must be a non-empty string'],
    ])(
      'blank in %s gets that action\u2019s message, not the optional one\u2019s',
      async (action, field, message) => {
        for (const value of [' ', '', '\t', 7]) {
          const out = await kit.call('notes', { action, [field]: value });
          expect(out).toMatchObject({ isError: true, text: message, structured: undefined });
        }
        expect(received).toEqual([]);
      },
    );

    it('keeps the optional action\u2019s own advice, and trims a given id once', async () => {
      expect((await kit.call('notes', { action: 'read', tabId: ' ' })).text).toBe(
        'tabId must be a non-empty string when provided — omit it to target the focused tab',
      );
      expect((await kit.call('notes', { action: 'open', windowLabel: '' })).text).toBe(
        'windowLabel must be a non-empty string when provided — omit it to target the focused window',
      );
      await kit.call('notes', { action: 'close', tabId: ' tab-3 ' });
      expect(received).toEqual([{ action: 'close', args: { tabId: 'tab-3' } }]);
    });

    it('is listed once, with minLength 1, in the JSON Schema the client sees', async () => {
      const { tools } = await kit.client.listTools();
      const schema = tools.find((t) => t.name === 'notes')!.inputSchema;
      expect(schema.properties?.tabId).toEqual({ type: 'string', minLength: 1 });
      expect(schema.properties?.windowLabel).toEqual({ type: 'string', minLength: 1 });
      expect(schema.required).toEqual(['action']);
    });
  });

  describe('a listed value the seed refuses with an envelope', () => {
    it('answers a value off the list with the domain envelope, and lists the values as an enum', async () => {
      const out = await kit.call('notes', { action: 'tint', shade: 'purple' });
      expect(out).toMatchObject({
        isError: true,
        structured: { error: 'INTERNAL', message: 'shade must be one of: light, dark' },
      });
      expect(received).toEqual([]);
      const { tools } = await kit.client.listTools();
      const schema = tools.find((t) => t.name === 'notes')!.inputSchema;
      expect(schema.properties?.shade).toMatchObject({ type: 'string', enum: ['light', 'dark'] });
    });

    it('answers a missing or non-string value with a plain string', async () => {
      expect(await kit.call('notes', { action: 'tint' })).toMatchObject({
        isError: true,
        text: 'shade (string) is required',
        structured: undefined,
      });
      expect((await kit.call('notes', { action: 'tint', shade: 3 })).text).toBe('shade (string) is required');
    });

    it('hands a listed value on', async () => {
      expect((await kit.call('notes', { action: 'tint', shade: 'dark' })).isError).toBe(false);
      expect(received).toEqual([{ action: 'tint', args: { shade: 'dark' } }]);
    });
  });

  describe('arguments of the wrong type', () => {
    it('refuses a non-boolean save rather than dropping it', async () => {
      const out = await kit.call('notes', { action: 'write', content: 'x', save: 'yes' });
      expect(out.isError).toBe(true);
      expect(out.text).toContain('save must be a boolean');
      expect(received).toEqual([]);
    });

    it('refuses a number where a string is required', async () => {
      const out = await kit.call('notes', { action: 'write', content: 5 });
      expect(out.isError).toBe(true);
      expect(out.text).toContain('content (string) is required');
    });

    it('refuses a value its action\u2019s schema does not accept, naming the field first', async () => {
      const out = await kit.call('notes', { action: 'search', query: 'q', limit: 1.5 });
      expect(out.isError).toBe(true);
      expect(out.text).toMatch(/^limit: /);
      expect(received).toEqual([]);
    });
  });
});

describe('argument schemas that transform their input', () => {
  const splitArgs = { tags: z.string().transform((s) => s.split(',')) };
  const tagged = defineTool({
    name: 'tagged',
    title: 'Tagged',
    description: 'Takes a comma-separated list',
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    actions: {
      tag: defineAction({
        args: splitArgs,
        run: (args) => {
          received.push({ action: 'tag', args });
          return args.tags;
        },
      }),
    },
  });

  it('runs the transform once, so the action gets its output', async () => {
    const transformKit = await startTestHost({
      plugins: [toolPlugin('transform-test', [tagged])],
    });
    try {
      const out = await transformKit.call('tagged', { action: 'tag', tags: 'a,b' });
      expect(out).toMatchObject({ isError: false, data: ['a', 'b'] });
      expect(received).toEqual([{ action: 'tag', args: { tags: ['a', 'b'] } }]);
    } finally {
      await transformKit.dispose();
    }
  });
});
